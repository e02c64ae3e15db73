/**
 * The review page's one script, sent inline: no build step, nothing fetched but the page's own API.
 * Plain DOM: every figure of the overview is a button that shows its rows; a row to fix is labelled
 * inputs, saved and re-checked on the server as the reviewer types (300 ms after the last key); any
 * other row is read-only. Text always goes in as text, never as HTML.
 */
export const pageScript = String.raw`
'use strict';
const colours={won:'#2e7d32',chargeback_filed:'#66bb6a',chargeback_represented:'#f9a825',prearb_filed:'#ef6c00',prearb_rebutted:'#ef6c00',arbitration_filed:'#6a1b9a',lost:'#c62828',closed:'#9e9e9e',not_read:'#9e9e9e',no_case:'#9e9e9e',filed:'#2e7d32',created:'#66bb6a',valid:'#81c784',not_filed:'#f9a825',invalid:'#ef6c00',rejected:'#c62828',failed:'#6a1b9a',migrated:'#2e7d32',skipped:'#9e9e9e',withdrawn:'#2e7d32',deleted:'#66bb6a',already_closed:'#9e9e9e',not_found:'#f9a825',refused:'#c62828',would_withdraw:'#81c784',would_delete:'#81c784'};
const blank={scope:'fix',outcome:'',code:'',claim:'',q:'',mixed:false,edited:false,page:1};
let state=Object.assign({},blank);
let job={columns:[],evidence:[]};
const byId=(id)=>document.getElementById(id);
// A track journal's rows are cases and its rows to fix the worklist (page.ts names them the same way).
const tracked=document.body.dataset.kind==='track';
const words=tracked?{toFix:'on the worklist',toFixTitle:'Worklist',all:'Every case',hint:'what to do: '}:{toFix:'to fix',toFixTitle:'Rows to fix',all:'Rows',hint:'fix: '};
async function api(method,path,body){
  const response=await fetch(path,{method,headers:body?{'content-type':'application/json'}:{},body:body?JSON.stringify(body):undefined,credentials:'same-origin'});
  const data=await response.json();
  if(!response.ok)throw new Error(data.message||String(response.status));
  return data;
}
function element(tag,content,className){const made=document.createElement(tag);if(content!==undefined)made.textContent=content;if(className)made.className=className;return made;}
function button(label,onClick,className){const made=element('button',label,className);made.type='button';made.addEventListener('click',onClick);return made;}
/** Shows the rows a figure stands for, and moves there. */
function show(filters){state=Object.assign({},blank,filters);syncForm();rows().then(()=>byId('rows-title').focus());}
function syncForm(){byId('scope').value=state.scope;byId('outcome').value=state.outcome;byId('code').value=state.code;byId('claim').value=state.claim;byId('q').value=state.q;byId('mixedonly').checked=state.mixed;byId('editedonly').checked=state.edited;
  byId('rows-title').textContent=state.scope==='all'?words.all:words.toFixTitle;}

async function overview(){
  const data=await api('GET','/api/overview');job=data;
  const figures=byId('figures');figures.replaceChildren();
  const figure=(count,label,filters)=>{const made=button('',()=>show(filters),'figure');made.append(element('b',count.toLocaleString('en')),element('span',label));made.setAttribute('aria-label',count+' '+label+': show them');figures.append(made);};
  figure(data.rows,'rows',{scope:'all'});figure(data.claims,'claims',{scope:'all'});figure(data.toFix,words.toFix,{scope:'fix'});
  figure(data.mixedClaimsTotal,'claims with mixed outcomes',{scope:'all',mixed:true});
  if(data.kind==='import')figure(data.edited,'edited',{scope:'fix',edited:true});
  const most=Math.max(1,...data.outcomes.map((item)=>item.count));
  const outcomes=byId('outcomes');outcomes.replaceChildren();const outcomeSelect=byId('outcome');outcomeSelect.replaceChildren(new Option('any',''));
  for(const {outcome,count} of data.outcomes){
    const item=element('li');const bar=button('',()=>show({scope:'all',outcome}),'bar');bar.setAttribute('aria-label',outcome+': '+count+' rows, show them');
    const track=element('span','','track');const fill=element('span','','fill');fill.style.width=(100*count/most)+'%';fill.style.background=colours[outcome]||'#777';track.append(fill);
    bar.append(element('span',outcome),track,element('span',count.toLocaleString('en'),'count'));item.append(bar);outcomes.append(item);outcomeSelect.append(new Option(outcome,outcome));
  }
  const errors=byId('errors').tBodies[0];errors.replaceChildren();
  for(const error of data.errors){const row=element('tr');const code=element('td');code.append(button(error.code,()=>show({scope:'all',code:error.code}),'link'));
    row.append(code,element('td',error.count.toLocaleString('en'),'n'),element('td',error.hint));row.title=error.example;errors.append(row);}
  if(data.errors.length===0){const none=element('tr');none.append(element('td','No errors.','note'));errors.append(none);}
  byId('mixed-title').textContent='Claims with mixed outcomes ('+data.mixedClaimsTotal+')';
  const mixed=byId('mixed');mixed.replaceChildren();
  for(const claim of data.mixedClaims){const item=element('li');item.append(button(claim.claimKey+(claim.claimId?' ('+claim.claimId+')':''),()=>show({scope:'all',claim:claim.claimKey}),'link'),element('span',': '+claim.outcomes.join(', ')));mixed.append(item);}
  if(data.mixedClaimsTotal>data.mixedClaims.length){const more=element('li');more.append(button('all '+data.mixedClaimsTotal+' claims',()=>show({scope:'all',mixed:true}),'link'));mixed.append(more);}
  if(data.mixedClaimsTotal===0)mixed.append(element('li','None.','note'));
  const codes=byId('code');const chosen=codes.value;codes.replaceChildren(new Option('any',''));
  for(const {code,count} of data.codes)codes.append(new Option(code+' ('+count+' '+words.toFix+')',code));
  codes.value=chosen;
  if(data.retry){const retry=byId('retry');retry.hidden=false;retry.textContent=data.retryNote+'\n'+data.retry;}
  if(data.summaryText){byId('summary-panel').hidden=false;byId('summary-text').textContent=data.summaryText;}
}

function problemOf(container,column){return container.querySelector('[data-column="'+CSS.escape(column)+'"]');}
function showCheck(container,check){
  const status=container.querySelector('.status');if(!status)return;status.replaceChildren();
  for(const cell of container.querySelectorAll('.cell')){cell.classList.remove('bad');cell.querySelector('.problem').textContent='';cell.querySelector('.mapped').textContent='';}
  if(!check)return;
  for(const [column,value] of Object.entries(check.mapped)){const cell=problemOf(container,column);if(cell)cell.querySelector('.mapped').textContent='→ '+value;}
  for(const problem of check.problems)for(const column of problem.columns){const cell=problemOf(container,column);if(cell){cell.classList.add('bad');cell.querySelector('.problem').textContent=problem.code+': '+problem.message;}}
  status.append(check.ok?element('span','✓ maps: ready to feed back','ok'):element('span',check.problems.length+' problem(s): '+check.problems.map((p)=>p.field+' '+p.code).join(', '),'error'));
}
function heading(row){
  const title=element('h3',(tracked&&row.caseId?'Case '+row.caseId:'Line '+row.line)+' · '+row.outcome+(row.claimKey?' · claim '+row.claimKey:''));
  if(row.mixed){const badge=element('span','mixed claim','badge');badge.style.background='#5b6776';title.append(badge);}
  return title;
}
/** A not_filed row: the claim exists; what the service said, and an evidence file to attach. */
function filing(row,container){
  const box=element('div','','filing');box.setAttribute('role','note');
  box.append(element('strong','The service created this claim'+(row.claimId?' ('+row.claimId+(row.caseId?', case '+row.caseId:'')+')':'')+' but did not file it.'),
    element('div','It said: '+row.errorCode+': '+row.errorMessage),
    element('div','Attach what it asks for, or correct the cells: fed back, the claim is updated and filed again, never created again.','hint'));
  container.append(box);
}
function attach(row,container){
  if(job.evidence.length===0)return;
  const set=element('fieldset','','attach');set.append(element('legend','Attach an evidence file'));
  const id='e'+row.line;const columnLabel=element('label','to column');columnLabel.htmlFor=id+'-column';
  const select=element('select');select.id=id+'-column';for(const item of job.evidence)select.append(new Option(item.column+' ('+item.category+')',item.column));
  const pathLabel=element('label','file in the evidence folder');pathLabel.htmlFor=id+'-path';
  const path=element('input');path.id=id+'-path';path.setAttribute('list','evidence-files');path.autocomplete='off';
  let timer;path.addEventListener('input',()=>{clearTimeout(timer);timer=setTimeout(async()=>{const found=await api('GET','/api/evidence?q='+encodeURIComponent(path.value));byId('evidence-files').replaceChildren(...found.files.map((file)=>new Option(file,file)));},200);});
  const add=button('Attach',()=>{
    const value=path.value.trim();if(!value)return;const spec=job.evidence.find((item)=>item.column===select.value);
    const input=problemOf(container,select.value)?.querySelector('input');if(!input)return;
    input.value=input.value.trim()&&spec.separator?input.value.trim()+spec.separator+value:value;path.value='';
    input.dispatchEvent(new Event('input'));input.focus();
  });
  const left=element('div');left.append(columnLabel,select);const right=element('div');right.append(pathLabel,path);
  set.append(left,right,add);container.append(set);
}
function editableRow(row){
  const container=element('article','','row');container.dataset.line=row.line;container.append(heading(row));
  if(row.outcome==='not_filed')filing(row,container);
  else container.append(element('p','the import said: '+row.errorCode+': '+row.errorMessage,'error'));
  if(row.hint)container.append(element('p','fix: '+row.hint,'hint'));
  const cells=element('div','','cells');let timer;
  job.columns.forEach((column,position)=>{
    const cell=element('div','','cell');cell.dataset.column=column;const id='c'+row.line+'-'+position;
    const label=element('label',column);label.htmlFor=id;const input=element('input');input.id=id;input.value=row.cells[column]??'';
    if(row.errorColumns.includes(column)&&!row.edited)cell.classList.add('bad');
    input.addEventListener('input',()=>{clearTimeout(timer);timer=setTimeout(async()=>{
      const edited={};for(const field of cells.querySelectorAll('input'))edited[field.parentElement.dataset.column]=field.value;
      try{const saved=await api('PUT','/api/rows/'+row.line,{cells:edited});showCheck(container,saved.check);
        for(const sibling of saved.siblings){const other=document.querySelector('article[data-line="'+sibling.line+'"]');if(other)showCheck(other,sibling.check);}
        updateEdited();}
      catch(error){container.querySelector('.status').replaceChildren(element('span','not saved: '+error.message,'error'));}
    },300);});
    cell.append(label,input,element('div','','problem'),element('div','','mapped'));cells.append(cell);
  });
  container.append(cells);
  if(row.outcome==='not_filed'||row.errorField.startsWith('evidence.'))attach(row,container);
  container.append(element('div','','status'));
  // Back to the cells the import read: the edit leaves the review's store.
  container.append(button('Undo my edits to line '+row.line,async()=>{const original=await api('DELETE','/api/rows/'+row.line);container.replaceWith(editableRow(original));updateEdited();},'link'));
  // A claim's rows may be far apart in the input: shown together, they are fixed together.
  if(row.claimKey&&state.claim!==row.claimKey){container.append(document.createTextNode(' · '));container.append(button('Show every row of claim '+row.claimKey,()=>show({scope:'all',claim:row.claimKey}),'link'));}
  if(row.check)showCheck(container,row.check);
  else for(const column of row.errorColumns){const cell=problemOf(container,column);if(cell)cell.querySelector('.problem').textContent=row.errorCode+': '+row.errorMessage;}
  return container;
}
function readonlyRow(row){
  const container=element('article','','row readonly');container.dataset.line=row.line;container.append(heading(row));
  if(row.errorCode){container.append(element('p',row.errorCode+': '+row.errorMessage,'error'));if(row.hint)container.append(element('p',words.hint+row.hint,'hint'));}
  const cells=element('dl','','cells');
  for(const column of job.columns){const cell=element('div','','cell');cell.append(element('dt',column,'label'),element('dd',row.cells[column]??''));cells.append(cell);}
  container.append(cells);
  if(row.claimKey&&state.claim!==row.claimKey)container.append(button('Show every row of claim '+row.claimKey,()=>show({scope:'all',claim:row.claimKey})));
  return container;
}
async function rows(){
  const query=new URLSearchParams({scope:state.scope,outcome:state.outcome,code:state.code,claim:state.claim,q:state.q,page:String(state.page)});
  if(state.mixed)query.set('mixed','1');if(state.edited)query.set('edited','1');
  const data=await api('GET','/api/rows?'+query);
  byId('rows').replaceChildren(...data.rows.map((row)=>row.editable?editableRow(row):readonlyRow(row)));
  if(data.rows.length===0)byId('rows').append(element('p','No rows match.','note'));
  const pages=Math.max(1,Math.ceil(data.total/data.pageSize));
  byId('pageinfo').textContent='page '+data.page+' of '+pages+' ('+data.total.toLocaleString('en')+' rows)';byId('previous').disabled=data.page<=1;byId('next').disabled=data.page>=pages;
}
async function updateEdited(){const data=await api('GET','/api/overview');const figure=[...byId('figures').children].find((item)=>item.textContent.endsWith('edited'));if(figure)figure.querySelector('b').textContent=data.edited.toLocaleString('en');}

byId('filters').addEventListener('submit',(event)=>{event.preventDefault();
  state={scope:byId('scope').value,outcome:byId('outcome').value,code:byId('code').value,claim:byId('claim').value.trim(),q:byId('q').value,mixed:byId('mixedonly').checked,edited:byId('editedonly').checked,page:1};
  if(state.scope==='fix'&&state.outcome&&job.fixOutcomes&&!job.fixOutcomes.includes(state.outcome))state.scope='all';
  syncForm();rows();});
byId('clear').addEventListener('click',()=>show({}));
byId('previous').addEventListener('click',()=>{state.page--;rows();});byId('next').addEventListener('click',()=>{state.page++;rows();});
byId('save').addEventListener('click',async()=>{const out=byId('saved');out.hidden=false;
  try{const saved=await api('POST','/api/save');out.textContent='Saved '+saved.rows+' row(s) to '+saved.file+'\nFeed it back:\n'+saved.command;}catch(error){out.textContent=String(error.message);}});
const sendButton=byId('send');
fetch('/api/send',{credentials:'same-origin'}).then((response)=>{sendButton.hidden=!response.ok;});
sendButton.addEventListener('click',async()=>{const out=byId('saved');out.hidden=false;sendButton.disabled=true;
  try{await api('POST','/api/send');
    for(;;){const sent=await api('GET','/api/send');out.textContent='Sending: '+sent.progress;
      if(sent.status==='done'){out.textContent='Sent: '+Object.entries(sent.outcomes||{}).filter(([,count])=>count>0).map(([outcome,count])=>outcome+' '+count).join(', ')+(sent.error?' (stopped: '+sent.error+')':'')+'\nresults: '+sent.results;break;}
      if(sent.status==='failed'){out.textContent='Send failed: '+sent.error;break;}
      await new Promise((resolve)=>setTimeout(resolve,500));}}
  catch(error){out.textContent=String(error.message);}finally{sendButton.disabled=false;}});
overview().then(rows);
`;
