/** The page around every portal page: skip link, header, navigation, sign-out (a form with its CSRF token). */
export const layout = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title><%= it.title %> · Customer portal</title>
<link rel="stylesheet" href="<%= it.base %>/style.css">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
  <p class="brand"><%= it.seller %></p>
<% if (it.account) { %>
  <p class="account">Account <strong><%= it.account.number %></strong> · <%= it.account.name %></p>
  <nav aria-label="Portal">
    <ul>
<% for (const item of it.nav) { %>
      <li><a href="<%= it.base %>/<%= item.path %>"<% if (item.current) { %> aria-current="page"<% } %>><%= item.label %></a></li>
<% } %>
    </ul>
  </nav>
  <form method="post" action="<%= it.base %>/sign-out" class="sign-out">
    <input type="hidden" name="csrf" value="<%= it.csrf %>">
    <button type="submit">Sign out</button>
  </form>
<% } %>
</header>
<main id="main">
<h1><%= it.title %></h1>
<%~ it.body %>
</main>
</body>
</html>
`
