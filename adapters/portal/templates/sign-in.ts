/** Two ways in: a contact's email and password, or the account number and portal PIN. */
export const signIn = `<% layout('@layout') %>
<% if (it.error) { %>
<p class="error" role="alert"><%= it.error %></p>
<% } %>
<div class="cards">
<form method="post" action="<%= it.base %>/sign-in" class="card">
  <h2>With your email</h2>
  <input type="hidden" name="csrf" value="<%= it.csrf %>">
  <input type="hidden" name="method" value="password">
  <label for="email">Email address</label>
  <input id="email" name="email" type="email" autocomplete="username" required value="<%= it.email %>">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Sign in</button>
</form>
<form method="post" action="<%= it.base %>/sign-in" class="card">
  <h2>With your account number</h2>
  <input type="hidden" name="csrf" value="<%= it.csrf %>">
  <input type="hidden" name="method" value="pin">
  <label for="accountNumber">Account number</label>
  <input id="accountNumber" name="accountNumber" autocomplete="username" required value="<%= it.accountNumber %>">
  <label for="pin">Portal PIN</label>
  <input id="pin" name="pin" type="password" inputmode="numeric" autocomplete="current-password" required>
  <button type="submit">Sign in</button>
</form>
</div>
`
