/** Payments received. */
export const payments = `<% layout('@layout') %>
<% if (it.payments.length === 0) { %>
<p>No payments yet.</p>
<% } else { %>
<div class="table" role="region" aria-label="Payments table" tabindex="0">
<table>
  <caption>Payments received, newest first</caption>
  <thead><tr><th scope="col">Date</th><th scope="col">Description</th><th scope="col" class="num">Amount</th></tr></thead>
  <tbody>
<% for (const p of it.payments) { %>
    <tr><td><%= p.date %></td><td><%= p.description %></td><td class="num"><%= p.amount %></td></tr>
<% } %>
  </tbody>
</table>
</div>
<% } %>
`
