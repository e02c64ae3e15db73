import type { ReviewJob } from './job.js';

const escape = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * The review page (issue 23): server-rendered, one small script, no build step, nothing from a CDN.
 * It reads the rows to fix from the API, shows each row's cells as labelled inputs (the cell behind
 * the error marked, with the message and the fix hint), re-checks a row on the server as the
 * reviewer types, and saves the fix file. Keyboard only is enough: every control is a native input
 * or button, in reading order.
 */
export function reviewPage(job: ReviewJob): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bulk-disputes review: ${escape(job.journal)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5rem;color:#1d2733;background:#fafbfc}
h1{font-size:1.3rem;margin:0 0 .25rem} .muted{color:#5b6776}
.figures{display:flex;gap:1rem;flex-wrap:wrap;margin:1rem 0}.figure{background:#fff;border:1px solid #d8dee6;border-radius:6px;padding:.5rem .8rem}
.figure b{display:block;font-size:1.2rem}
form.filters{display:flex;gap:.6rem;align-items:end;margin:1rem 0;flex-wrap:wrap} label{display:block;font-size:.8rem;color:#5b6776}
.row{background:#fff;border:1px solid #d8dee6;border-radius:6px;margin:.8rem 0;padding:.6rem .8rem}
.row h2{font-size:1rem;margin:0 0 .3rem}.cells{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:.4rem .8rem}
.cell input{width:100%;box-sizing:border-box;padding:.25rem;border:1px solid #c3ccd6;border-radius:4px;font:inherit}
.cell.bad input{border:2px solid #c0392b;background:#fff0ee}.cell .problem{color:#a52a1f;font-size:.8rem}.cell .mapped{color:#24613a;font-size:.8rem}
.status{margin-top:.4rem}.ok{color:#24613a}.error{color:#a52a1f}.hint{color:#5b6776;font-size:.85rem}
button{font:inherit;padding:.3rem .7rem;border-radius:4px;border:1px solid #5b6776;background:#fff;cursor:pointer}button.primary{background:#1f5fa8;color:#fff;border-color:#1f5fa8}
#saved{background:#eef6ee;border:1px solid #9cc79c;padding:.5rem;border-radius:6px;white-space:pre-wrap;font-family:ui-monospace,monospace}
</style></head>
<body>
<header><h1>Review: ${escape(job.journal)}</h1><p class="muted">service: ${escape(job.service)} · mapping: ${escape(job.mappingFile)}</p></header>
<section aria-label="overview" class="figures" id="figures"></section>
<section aria-label="errors"><h2 style="font-size:1rem;margin:.5rem 0">Errors, most frequent first: each shows its rows</h2><ul id="codes"></ul></section>
<form class="filters" id="filters" role="search">
  <div><label for="code">error code</label><select id="code" name="code"><option value="">all</option></select></div>
  <div><label for="q">search</label><input id="q" name="q" type="search" placeholder="a reference, a name, a message"></div>
  <button type="submit">Show</button>
  <button type="button" class="primary" id="save">Save fix file</button>
  <button type="button" class="primary" id="send" hidden>Send fixes</button>
</form>
<div id="saved" hidden role="status"></div>
<main id="rows" aria-live="polite"></main>
<nav aria-label="pages"><button type="button" id="previous">Previous page</button> <span id="pageinfo"></span> <button type="button" id="next">Next page</button></nav>
<script>
const state={page:1,code:'',q:'',columns:[]};
const api=async(method,path,body)=>{const response=await fetch(path,{method,headers:body?{'content-type':'application/json'}:{},body:body?JSON.stringify(body):undefined,credentials:'same-origin'});const data=await response.json();if(!response.ok)throw new Error(data.message||response.status);return data;};
const text=(tag,content,className)=>{const element=document.createElement(tag);element.textContent=content;if(className)element.className=className;return element;};
async function overview(){const data=await api('GET','/api/overview');state.columns=data.columns;const figures=document.getElementById('figures');figures.replaceChildren();
 const add=(label,value)=>{const figure=text('div','', 'figure');figure.append(text('b',String(value)),text('span',label));figures.append(figure);};
 add('rows',data.rows);for(const [outcome,count] of Object.entries(data.outcomes))add(outcome,count);add('to fix',data.toFix);add('edited',data.edited);
 const select=document.getElementById('code');const codes=document.getElementById('codes');codes.replaceChildren();
 for(const {code,count,hint} of data.codes){const option=text('option',code+' ('+count+')');option.value=code;select.append(option);
  const item=document.createElement('li');const link=text('button',code+' ('+count+')');link.type='button';link.title=hint;
  link.addEventListener('click',()=>{select.value=code;state.code=code;state.page=1;rows();});item.append(link,text('span',' '+hint,'hint'));codes.append(item);}}
function showCheck(container,check){const status=container.querySelector('.status');status.replaceChildren();
 for(const cell of container.querySelectorAll('.cell')){cell.classList.remove('bad');cell.querySelector('.problem').textContent='';cell.querySelector('.mapped').textContent='';}
 if(!check)return;for(const [column,value] of Object.entries(check.mapped)){const cell=container.querySelector('[data-column="'+CSS.escape(column)+'"]');if(cell)cell.querySelector('.mapped').textContent='→ '+value;}
 for(const problem of check.problems){for(const column of problem.columns){const cell=container.querySelector('[data-column="'+CSS.escape(column)+'"]');if(cell){cell.classList.add('bad');cell.querySelector('.problem').textContent=problem.code+': '+problem.message;}}}
 status.append(check.ok?text('span','✓ maps: ready to feed back','ok'):text('span',check.problems.length+' problem(s): '+check.problems.map(p=>p.field+' '+p.code).join(', '),'error'));}
function rowElement(row){const container=text('article','','row');container.dataset.line=row.line;
 container.append(text('h2','Line '+row.line+' · '+row.outcome+(row.claimKey?' · claim '+row.claimKey:'')));
 container.append(text('p','the import said: '+row.errorCode+': '+row.errorMessage,'error'),text('p','fix: '+row.hint,'hint'));
 const cells=text('div','','cells');let timer;
 for(const column of state.columns){const cell=text('div','','cell');cell.dataset.column=column;const id='c'+row.line+'-'+state.columns.indexOf(column);
  const label=text('label',column);label.htmlFor=id;const input=document.createElement('input');input.id=id;input.value=row.cells[column]??'';
  if(row.errorColumns.includes(column)&&!row.edited){cell.classList.add('bad');}
  input.addEventListener('input',()=>{clearTimeout(timer);timer=setTimeout(async()=>{const edited={};for(const field of cells.querySelectorAll('input'))edited[field.parentElement.dataset.column]=field.value;const saved=await api('PUT','/api/rows/'+row.line,{cells:edited});showCheck(container,saved.check);for(const sibling of saved.siblings){const other=document.querySelector('article[data-line="'+sibling.line+'"]');if(other)showCheck(other,sibling.check);}},300);});
  cell.append(label,input,text('div','','problem'),text('div','','mapped'));cells.append(cell);}
 container.append(cells,text('div','','status'));if(row.check)showCheck(container,row.check);else if(row.errorColumns.length){for(const column of row.errorColumns){const cell=container.querySelector('[data-column="'+CSS.escape(column)+'"]');if(cell)cell.querySelector('.problem').textContent=row.errorCode;}}
 return container;}
async function rows(){const data=await api('GET','/api/rows?page='+state.page+'&code='+encodeURIComponent(state.code)+'&q='+encodeURIComponent(state.q));
 document.getElementById('rows').replaceChildren(...data.rows.map(rowElement));const pages=Math.max(1,Math.ceil(data.total/data.pageSize));
 document.getElementById('pageinfo').textContent='page '+data.page+' of '+pages+' ('+data.total+' rows)';document.getElementById('previous').disabled=data.page<=1;document.getElementById('next').disabled=data.page>=pages;}
document.getElementById('filters').addEventListener('submit',(event)=>{event.preventDefault();state.code=document.getElementById('code').value;state.q=document.getElementById('q').value;state.page=1;rows();});
document.getElementById('previous').addEventListener('click',()=>{state.page--;rows();});document.getElementById('next').addEventListener('click',()=>{state.page++;rows();});
document.getElementById('save').addEventListener('click',async()=>{const out=document.getElementById('saved');out.hidden=false;try{const saved=await api('POST','/api/save');out.textContent='Saved '+saved.rows+' row(s) to '+saved.file+'\\nFeed it back:\\n'+saved.command;}catch(error){out.textContent=String(error.message);}});
const sendButton=document.getElementById('send');
fetch('/api/send',{credentials:'same-origin'}).then((response)=>{sendButton.hidden=!response.ok;});
sendButton.addEventListener('click',async()=>{const out=document.getElementById('saved');out.hidden=false;sendButton.disabled=true;
 try{await api('POST','/api/send');for(;;){const state=await api('GET','/api/send');out.textContent='Sending: '+state.progress;
  if(state.status==='done'){out.textContent='Sent: '+Object.entries(state.outcomes||{}).map(([outcome,count])=>outcome+' '+count).join(', ')+(state.error?' (stopped: '+state.error+')':'')+'\\nresults: '+state.results;break;}
  if(state.status==='failed'){out.textContent='Send failed: '+state.error;break;}await new Promise((resolve)=>setTimeout(resolve,500));}}
 catch(error){out.textContent=String(error.message);}finally{sendButton.disabled=false;}});
overview().then(rows);
</script>
</body></html>
`;
}
