/** Minutes of each plan or pool this month, and how many are used and left. */
export const allowances = `<% layout('@layout') %>
<% if (it.rows.length === 0) { %>
<p>Your account has no call allowances.</p>
<% } else { %>
<dl class="figures">
  <div><dt>Minutes this month</dt><dd><%= it.minutes %></dd></div>
  <div><dt>Used</dt><dd><%= it.used %></dd></div>
  <div><dt>Left</dt><dd><%= it.left %></dd></div>
</dl>
<div class="table" role="region" aria-label="Allowances table" tabindex="0">
<table>
  <caption>Allowances by plan and pool</caption>
  <thead><tr><th scope="col">Pool</th><th scope="col">Plan</th><th scope="col" class="num">Minutes a month</th><th scope="col" class="num">Used</th><th scope="col" class="num">Left</th></tr></thead>
  <tbody>
<% for (const r of it.rows) { %>
    <tr><td><%= r.pool %></td><td><%= r.plan %></td><td class="num"><%= r.minutes %></td><td class="num"><%= r.used %></td><td class="num"><%= r.left %></td></tr>
<% } %>
  </tbody>
</table>
</div>
<% } %>
`
