/** Pay now: the amount outstanding, and links from the providers once asked for (a form: it records a link). */
export const pay = `<% layout('@layout') %>
<p>Amount outstanding: <strong><%= it.outstanding %></strong></p>
<% if (it.links) { %>
<% if (it.links.length === 0) { %>
<p>No way to pay online is set up for your account. Please contact us.</p>
<% } else { %>
<ul class="links">
<% for (const l of it.links) { %>
  <li><a class="button" href="<%= l.url %>" rel="noreferrer"><%= l.label %></a></li>
<% } %>
</ul>
<% } %>
<% } else if (it.canPay) { %>
<form method="post" action="<%= it.base %>/pay">
  <input type="hidden" name="csrf" value="<%= it.csrf %>">
  <button type="submit">Get payment links</button>
</form>
<% } else { %>
<p>Nothing to pay just now.</p>
<% } %>
`
