/** A contact shared by several customers picks the account to look at. */
export const choose = `<% layout('@layout') %>
<p>You can see more than one account. Choose one:</p>
<ul class="choices">
<% for (const c of it.customers) { %>
  <li>
    <form method="post" action="<%= it.base %>/choose">
      <input type="hidden" name="csrf" value="<%= it.csrf %>">
      <input type="hidden" name="customerID" value="<%= c.id %>">
      <button type="submit">Account <%= c.number %> · <%= c.name %></button>
    </form>
  </li>
<% } %>
</ul>
`
