/** A short page with one message: not found, signed out. */
export const message = `<% layout('@layout') %>
<p><%= it.message %></p>
<p><a href="<%= it.base %>/<%= it.linkPath %>"><%= it.linkLabel %></a></p>
`
