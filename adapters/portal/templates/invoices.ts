/** The customer's invoices, each with its HTML view and PDF download. */
export const invoices = `<% layout('@layout') %>
<% if (it.invoices.length === 0) { %>
<p>No invoices yet.</p>
<% } else { %>
<div class="table" role="region" aria-label="Invoices table" tabindex="0">
<table>
  <caption>Your invoices, newest first</caption>
  <thead><tr><th scope="col">Invoice</th><th scope="col">Date</th><th scope="col" class="num">Total</th><th scope="col">Status</th><th scope="col">Download</th></tr></thead>
  <tbody>
<% for (const i of it.invoices) { %>
    <tr>
      <th scope="row"><a href="<%= it.base %>/invoices/<%= i.id %>"><%= i.number %></a></th>
      <td><%= i.date %></td>
      <td class="num"><%= i.total %></td>
      <td><span class="status status-<%= i.status.toLowerCase() %>"><%= i.status %></span></td>
      <td><a href="<%= it.base %>/invoices/<%= i.id %>/pdf" download>PDF<span class="visually-hidden"> of invoice <%= i.number %></span></a></td>
    </tr>
<% } %>
  </tbody>
</table>
</div>
<% } %>
`
