/** The customer's invoices, each with what its online bill type offers: the HTML view and PDF, the calls CSV, or the figures only. */
export const invoices = `<% layout('@layout') %>
<% if (!it.offer.listed) { %>
<p>Your invoices are not shown here. They reach you as agreed with us; contact us for a copy.</p>
<% } else if (it.invoices.length === 0) { %>
<p>No invoices yet.</p>
<% } else { %>
<div class="table" role="region" aria-label="Invoices table" tabindex="0">
<table>
  <caption>Your invoices, newest first</caption>
  <thead><tr><th scope="col">Invoice</th><th scope="col">Date</th><th scope="col" class="num">Total</th><th scope="col">Status</th><% if (it.offer.documents || it.offer.callsCsv) { %><th scope="col">Download</th><% } %></tr></thead>
  <tbody>
<% for (const i of it.invoices) { %>
    <tr>
      <th scope="row"><% if (it.offer.documents) { %><a href="<%= it.base %>/invoices/<%= i.id %>"><%= i.number %></a><% } else { %><%= i.number %><% } %></th>
      <td><%= i.date %></td>
      <td class="num"><%= i.total %></td>
      <td><span class="status status-<%= i.status.toLowerCase() %>"><%= i.status %></span></td>
<% if (it.offer.documents || it.offer.callsCsv) { %>
      <td><% if (it.offer.documents) { %><a href="<%= it.base %>/invoices/<%= i.id %>/pdf" download>PDF<span class="visually-hidden"> of invoice <%= i.number %></span></a><% } %><% if (it.offer.documents && it.offer.callsCsv) { %> · <% } %><% if (it.offer.callsCsv) { %><a href="<%= it.base %>/invoices/<%= i.id %>/csv" download>Calls (CSV)<span class="visually-hidden"> of invoice <%= i.number %></span></a><% } %></td>
<% } %>
    </tr>
<% } %>
  </tbody>
</table>
</div>
<% } %>
`
