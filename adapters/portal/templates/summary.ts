/** Balance, overdue amount, the last invoice and when the next one comes. */
export const summary = `<% layout('@layout') %>
<dl class="figures">
  <div><dt>Balance</dt><dd><%= it.balance %></dd></div>
  <div><dt>Overdue</dt><dd><%= it.overdue %></dd></div>
  <div><dt>Last invoice</dt><dd><% if (it.last) { %><% if (it.offer.documents) { %><a href="<%= it.base %>/invoices/<%= it.last.id %>"><%= it.last.number %></a><% } else { %><%= it.last.number %><% } %>, <%= it.last.date %>, <%= it.last.total %> (<%= it.last.status %>)<% } else if (!it.offer.listed) { %>Not shown here<% } else { %>None yet<% } %></dd></div>
  <div><dt>Next invoice</dt><dd><%= it.nextInvoiceDate %></dd></div>
</dl>
<% if (it.canPay) { %><p><a class="button" href="<%= it.base %>/pay">Pay now</a></p><% } %>
`
