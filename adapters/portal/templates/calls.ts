/** Calls not yet on an invoice, with the running total. */
export const calls = `<% layout('@layout') %>
<p>Total so far: <strong><%= it.total %></strong></p>
<% if (it.calls.length === 0) { %>
<p>No calls since your last invoice.</p>
<% } else { %>
<div class="table" role="region" aria-label="Calls table" tabindex="0">
<table>
  <caption>Calls not yet invoiced, oldest first</caption>
  <thead><tr><th scope="col">Started</th><th scope="col">From</th><th scope="col">To</th><th scope="col" class="num">Duration</th><th scope="col" class="num">Cost</th><th scope="col" class="num">Running total</th></tr></thead>
  <tbody>
<% for (const c of it.calls) { %>
    <tr><td><%= c.started %></td><td><%= c.from %></td><td><%= c.to %></td><td class="num"><%= c.duration %></td><td class="num"><%= c.cost %></td><td class="num"><%= c.running %></td></tr>
<% } %>
  </tbody>
</table>
</div>
<% if (it.more) { %><p>Only the first <%= it.limit %> calls are shown.</p><% } %>
<% } %>
`
