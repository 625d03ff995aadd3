/** The portal's one stylesheet: readable on a phone, AA contrast, visible focus; no outside fonts or images. */
export const stylesheet = `*{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:100%;line-height:1.5;color:#1a1a1a;background:#f5f6f8}
body{margin:0}
a{color:#0b4f9c}
a:focus,button:focus,input:focus{outline:3px solid #b35c00;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:1}
header{background:#12355b;color:#fff;padding:.75rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center}
header a{color:#fff}
header p{margin:0}
.brand{font-weight:700}
nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
nav a[aria-current=page]{font-weight:700;text-decoration-thickness:3px}
.sign-out{margin-left:auto}
main{max-width:60rem;margin:0 auto;padding:1rem}
h1{font-size:1.6rem;margin:.5rem 0 1rem}
h2{font-size:1.2rem;margin:0 0 .5rem}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(16rem,1fr));gap:1rem}
.card{background:#fff;border:1px solid #c9ced6;border-radius:6px;padding:1rem;display:flex;flex-direction:column;gap:.35rem}
label{font-weight:600}
input{font:inherit;padding:.5rem;border:1px solid #6b7280;border-radius:4px;width:100%}
button,.button{font:inherit;display:inline-block;background:#0b4f9c;color:#fff;border:0;border-radius:4px;padding:.55rem 1rem;cursor:pointer;text-decoration:none;margin-top:.5rem}
header button{background:#fff;color:#12355b;margin:0;padding:.3rem .75rem}
.error{background:#fde8e8;border:1px solid #b42318;color:#7a1a12;padding:.75rem;border-radius:4px}
.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(12rem,1fr));gap:1rem;margin:0 0 1rem}
.figures div{background:#fff;border:1px solid #c9ced6;border-radius:6px;padding:.75rem}
dt{font-weight:600;color:#374151}dd{margin:0;font-size:1.25rem}
.table{position:relative;overflow-x:auto;background:#fff;border:1px solid #c9ced6;border-radius:6px}
table{border-collapse:collapse;width:100%}
caption{text-align:left;padding:.5rem .75rem;font-weight:600}
th,td{padding:.5rem .75rem;border-top:1px solid #e1e4e8;text-align:left;white-space:nowrap}
thead th{background:#eef1f5}
.num{text-align:right}
.status{font-weight:600}.status-paid{color:#13622e}.status-overdue{color:#a4140b}.status-unpaid{color:#6b4500}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.choices,.links{list-style:none;padding:0}
`
