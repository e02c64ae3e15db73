/** The review page's look, served as /review.css: the HTML report's (report/render-html.ts) bar colours and type. */
export const pageStyle = `
body{font:14px/1.4 system-ui,sans-serif;margin:1.5rem 2rem;color:#222;background:#fafbfc}
h1{font-size:1.4rem;margin:0 0 .25rem}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}h3{font-size:.95rem;margin:.2rem 0 .5rem}.muted,.note{color:#555}
button{font:inherit;padding:.3rem .7rem;border-radius:4px;border:1px solid #5b6776;background:#fff;cursor:pointer}
button.primary{background:#1f5fa8;color:#fff;border-color:#1f5fa8}
button.link{border:none;background:none;padding:0;color:#1f5fa8;text-decoration:underline;cursor:pointer}
:focus-visible{outline:3px solid #1f5fa8;outline-offset:2px}
.figures{display:flex;gap:.8rem;flex-wrap:wrap}
.figure{text-align:left;background:#fff;border:1px solid #d8dee6;border-radius:6px;padding:.45rem .8rem}.figure b{display:block;font-size:1.25rem}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(22rem,1fr));gap:1rem;margin-top:1rem}
.panel{background:#fff;border:1px solid #d8dee6;border-radius:6px;padding:.6rem .8rem}
/* The whole width: a claim key and id of an operator's length stay on one line. */.wide{grid-column:1/-1}
#mixed{padding-left:1.2rem}#mixed li{overflow-wrap:anywhere}#mixed a{color:#1f5fa8}
.bars{list-style:none;margin:0;padding:0}
.bar{display:grid;grid-template-columns:6.5rem 1fr 4.5rem;align-items:center;gap:.4rem;width:100%;border:none;background:none;padding:.15rem 0;text-align:left}
body[data-kind=track] .bar{grid-template-columns:13rem 1fr 4.5rem}
.track{background:#eef1f4;height:1.1rem;border-radius:3px}.fill{display:block;height:100%;border-radius:3px;min-width:2px}.count{text-align:right}
table{border-collapse:collapse;width:100%}
th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}th{background:#f3f3f3}td.n{text-align:right}
form.filters{display:flex;gap:.6rem;align-items:end;margin:.6rem 0;flex-wrap:wrap}label,.label{display:block;font-size:.8rem;color:#555}
.row{background:#fff;border:1px solid #d8dee6;border-radius:6px;margin:.8rem 0;padding:.6rem .8rem}.row.readonly{background:#f6f7f9}
.row h3{font-size:1rem}.badge{display:inline-block;font-size:.75rem;border-radius:3px;padding:0 .35rem;color:#fff;margin-left:.3rem;vertical-align:middle}
.cells{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:.4rem .8rem;margin:.3rem 0}
.cell input{width:100%;box-sizing:border-box;padding:.25rem;border:1px solid #c3ccd6;border-radius:4px;font:inherit}.cell dd{margin:0;overflow-wrap:anywhere}
.cell.bad input{border:2px solid #c0392b;background:#fff0ee}.cell .problem{color:#a52a1f;font-size:.8rem}.cell .mapped{color:#24613a;font-size:.8rem}
.status{margin-top:.4rem}.ok{color:#24613a}.error{color:#a52a1f}.hint{color:#555;font-size:.85rem}
.filing{background:#fff8e1;border:1px solid #f9a825;border-radius:6px;padding:.4rem .6rem;margin:.3rem 0}
fieldset.attach{border:1px solid #d8dee6;border-radius:6px;margin:.4rem 0;display:flex;gap:.6rem;align-items:end;flex-wrap:wrap}
#saved,#retry{background:#eef6ee;border:1px solid #9cc79c;padding:.5rem;border-radius:6px;white-space:pre-wrap;font-family:ui-monospace,monospace}
`;
