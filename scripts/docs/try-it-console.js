// The "Try it" console of the API reference pages (built by scripts/docs/try-it.ts, which writes the operations'
// data into the page as #try-it-data): a button beside each operation's heading opens a dialog that sends the
// call to the local sandbox and shows the answer (status, the headers the operation declares, body).
// - The sandbox address and the API key are the reader's, kept in localStorage; the defaults are those `npm start`
//   prints (http://127.0.0.1:4020, sk_test_sandbox). `?sandbox=<origin>&key=<key>` in the page's address sets
//   them too (a sandbox on another port; the browser test's).
// - An operation that declares Idempotency-Key gets a fresh one at each send: a write sent twice is two writes,
//   as the contract asks of a new request; the key sent is shown with the answer.
// - The buttons go into Redoc's React tree only once React has taken over the server-rendered HTML (hydration):
//   a node added before would be a mismatch, and React would render the page again.
// Plain browser JavaScript, no build step, nothing fetched but the call itself. It is loaded as a module
// (`<script type="module">`, deferred like the page's other scripts), so that its names stay its own: a
// function named `open` at the top of a classic script would replace the page's window.open.
const STORE = { origin: 'try-it.sandbox', key: 'try-it.key' };
/** The page origins the sandbox answers without --cors-origin (src/sandbox/http/cors.ts). */
const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/;

const read = (name, fallback) => {
  try {
    return localStorage.getItem(name) || fallback;
  } catch {
    return fallback;
  }
};
const write = (name, value) => {
  try {
    localStorage.setItem(name, value);
  } catch {
    // Storage refused (private mode): the value holds for this page only.
  }
};

const forget = (name) => {
  try {
    localStorage.removeItem(name);
  } catch {
    // nothing was kept
  }
};

/** A fresh UUID v4 (crypto.randomUUID needs a secure context; loopback is one, other hosts may not be). */
const uuid = () => {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === undefined) continue;
    if (name === 'text') node.textContent = value;
    else node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
};

/** The operations' data the page carries, and the dialog, built once; its form is rebuilt for each operation. */
let DATA;
let dialog;
let current; // the operation the dialog shows

function field(label, input, hint) {
  return el(
    'label',
    { class: 'try-it-field' },
    el('span', { class: 'try-it-label', text: label }),
    input,
    hint && el('small', { text: hint }),
  );
}

/** The dialog's heading: the method and the path, with the close button. */
function dialogHead(op) {
  const title = el(
    'h2',
    { id: 'try-it-title' },
    el('span', { class: `try-it-method try-it-${op.method.toLowerCase()}`, text: op.method }),
    ` ${op.basePath}${op.path}`,
  );
  const close = el('button', { type: 'button', class: 'try-it-close', 'aria-label': 'Close', text: '×' });
  close.addEventListener('click', () => dialog.close());
  return el('header', { class: 'try-it-head' }, title, close);
}

/** The sandbox's address and the API key, remembered from the last send or the defaults. */
function connectionInputs() {
  const origin = el('input', {
    name: 'sandbox',
    type: 'url',
    value: read(STORE.origin, DATA.sandboxOrigin),
    required: true,
    spellcheck: 'false',
  });
  const key = el('input', {
    name: 'key',
    value: read(STORE.key, DATA.defaultKey),
    required: true,
    spellcheck: 'false',
    autocomplete: 'off',
  });
  return { origin, key };
}

/** A parameter's field: its example when it is required, a fresh key for Idempotency-Key. */
function parameterField(p) {
  const isKey = p.in === 'header' && p.name.toLowerCase() === DATA.idempotencyHeader.toLowerCase();
  const input = el('input', {
    name: `${p.in}:${p.name}`,
    value: isKey ? uuid() : p.required ? p.example : '',
    placeholder: p.example,
    required: p.required,
    spellcheck: 'false',
    'data-in': p.in,
    'data-name': p.name,
    'data-idempotency': isKey ? 'true' : undefined,
  });
  const where = p.in === 'path' ? 'path' : p.in === 'query' ? 'query' : 'header';
  const hint = isKey ? 'A fresh key is filled in at each send.' : undefined;
  return field(`${p.name} (${where}${p.required ? ', required' : ''})`, input, hint);
}

/** The form's buttons: back to what the sandbox prints by default (forgetting what the page remembered), and Send. */
function formActions(origin, key, send) {
  const reset = el('button', { type: 'button', class: 'try-it-reset', text: 'Default address and key' });
  reset.addEventListener('click', () => {
    origin.value = DATA.sandboxOrigin;
    key.value = DATA.defaultKey;
    forget(STORE.origin);
    forget(STORE.key);
  });
  return el('div', { class: 'try-it-actions' }, reset, send);
}

/** The form of one operation: the address and key, its parameters, its body, the buttons. */
function operationForm(op, origin, key, send) {
  const form = el('form', { class: 'try-it-form', method: 'dialog' });
  form.append(
    el('p', { class: 'try-it-summary', text: op.summary }),
    field(
      'Sandbox',
      origin,
      `Your sandbox: npx partner-api-sandbox --seed examples runs it at ${DATA.sandboxOrigin}; this operation is at ${op.basePath} there.`,
    ),
    field(
      'API key',
      key,
      `Bearer key: ${DATA.defaultKey} holds the examples (--seed examples); any other sk_test_ key gets an account of its own.`,
    ),
  );
  for (const p of op.parameters) form.append(parameterField(p));
  if (op.body !== undefined) {
    const body = el('textarea', { name: 'body', rows: String(Math.min(16, op.body.split('\n').length + 1)), spellcheck: 'false' });
    body.value = op.body;
    form.append(field(`Body (JSON${op.bodyRequired ? ', required' : ''})`, body));
  }
  form.append(formActions(origin, key, send));
  return form;
}

function open(sectionId) {
  const op = DATA.operations[sectionId];
  if (!op) return;
  current = { id: sectionId, op };
  dialog.replaceChildren();
  const { origin, key } = connectionInputs();
  const send = el('button', { type: 'submit', class: 'try-it-send', text: 'Send' });
  const form = operationForm(op, origin, key, send);
  const answer = el('section', { class: 'try-it-answer', 'aria-live': 'polite', 'aria-label': 'Answer' });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void sendCall(form, answer, send);
  });
  dialog.append(dialogHead(op), form, answer);
  if (!dialog.open) dialog.showModal();
  key.focus();
}

/** The call the form describes: its URL, headers and body. */
function callOf(op, form, origin, key) {
  let path = op.path;
  const search = new URLSearchParams();
  const headers = { Authorization: `Bearer ${key}` };
  for (const input of form.querySelectorAll('input[data-in]')) {
    const value = input.value.trim();
    const name = input.dataset.name;
    if (input.dataset.in === 'path') path = path.replace(`{${name}}`, encodeURIComponent(value));
    else if (value === '') continue;
    else if (input.dataset.in === 'query') search.append(name, value);
    else headers[name] = value;
  }
  let body;
  if (form.elements.body) {
    body = form.elements.body.value.trim();
    if (body === '') body = undefined;
    else headers['Content-Type'] = 'application/json';
  }
  const url = `${origin}${op.basePath}${path}${search.size > 0 ? `?${search}` : ''}`;
  return { url, headers, body };
}

/** No answer at all: what the sandbox must be, and which pages it answers. */
function showNoAnswer(answer, origin, error) {
  answer.replaceChildren(
    el('p', { class: 'try-it-status try-it-failed', role: 'alert', text: `No answer from ${origin}` }),
    el('p', {
      text:
        `${error?.message ?? error}. Is the sandbox running there (npx partner-api-sandbox --seed examples)? ` +
        (LOOPBACK.test(location.origin)
          ? 'It answers this page, which is on your machine.'
          : `It answers pages on http://127.0.0.1 and http://localhost only, unless started with --cors-origin ${location.origin}.`),
    }),
  );
}

async function sendCall(form, answer, send) {
  const { op } = current;
  const origin = form.elements.sandbox.value.trim().replace(/\/+$/, '');
  const key = form.elements.key.value.trim();
  write(STORE.origin, origin);
  write(STORE.key, key);
  const { url, headers, body } = callOf(op, form, origin, key);
  send.disabled = true;
  answer.replaceChildren(el('p', { class: 'try-it-pending', text: `${op.method} ${url} …` }));
  try {
    const response = await fetch(url, { method: op.method, headers, body, mode: 'cors', credentials: 'omit', cache: 'no-store' });
    const text = await response.text();
    showAnswer(answer, op, url, headers, response, text);
  } catch (error) {
    showNoAnswer(answer, origin, error);
  } finally {
    send.disabled = false;
    // A new request gets a new key; the one just sent is shown with its answer.
    for (const input of form.querySelectorAll('input[data-idempotency]')) input.value = uuid();
  }
}

function showAnswer(answer, op, url, sent, response, text) {
  let shown = text;
  try {
    shown = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // not JSON: shown as it came
  }
  const rows = [];
  for (const name of ['Content-Type', ...op.headers]) {
    const value = response.headers.get(name);
    if (value !== null) rows.push(el('tr', {}, el('th', { scope: 'row', text: name }), el('td', { text: value })));
  }
  const idempotency = Object.entries(sent).find(([name]) => name.toLowerCase() === DATA.idempotencyHeader.toLowerCase());
  const ok = response.status >= 200 && response.status < 300;
  const parts = [
    el(
      'p',
      { class: `try-it-status ${ok ? 'try-it-ok' : 'try-it-failed'}`, 'data-status': String(response.status) },
      `${response.status} ${response.statusText}`,
    ),
    el('p', { class: 'try-it-url', text: `${op.method} ${url}` }),
    idempotency && el('p', { class: 'try-it-sent', text: `Sent ${idempotency[0]}: ${idempotency[1]}` }),
    rows.length > 0 && el('table', { class: 'try-it-headers' }, el('tbody', {}, ...rows)),
    el('pre', { class: 'try-it-body' }, el('code', { text: shown })),
  ];
  answer.replaceChildren(...parts.filter(Boolean));
}

// One button per operation that has a console, beside its heading, once React has hydrated the section.
const hydrated = (node) => Object.keys(node).some((k) => k.startsWith('__reactFiber') || k.startsWith('__reactProps'));
function addButtons() {
  for (const section of document.querySelectorAll('[data-item-kind="httpItem"][data-section-id]')) {
    const id = section.getAttribute('data-section-id');
    if (!DATA.operations[id]) continue;
    const heading = section.querySelector('[data-testid="middle-panel"] h2');
    if (!heading || !hydrated(heading) || heading.parentElement.querySelector(':scope > .try-it-open')) continue;
    const op = DATA.operations[id];
    const button = el('button', { type: 'button', class: 'try-it-open', 'data-operation': id, 'aria-haspopup': 'dialog' }, 'Try it');
    button.title = `Send ${op.method} ${op.basePath}${op.path} to your local sandbox`;
    button.addEventListener('click', () => open(id));
    heading.after(button);
  }
}

// Until React has hydrated the page (its root's first element carries React's keys), look again at each
// frame; then add the buttons, and again whenever Redoc renders other sections (another route).
function waitForHydration(root) {
  const first = root.firstElementChild;
  if (first && hydrated(first)) {
    addButtons();
    new MutationObserver(addButtons).observe(root, { childList: true, subtree: true });
  } else {
    requestAnimationFrame(() => waitForHydration(root));
  }
}

function start() {
  const dataNode = document.getElementById('try-it-data');
  if (!dataNode) return;
  DATA = JSON.parse(dataNode.textContent || '{}');
  // The address's ?sandbox= and ?key= win, and are remembered.
  const query = new URLSearchParams(location.search);
  if (query.get('sandbox')) write(STORE.origin, query.get('sandbox').replace(/\/+$/, ''));
  if (query.get('key')) write(STORE.key, query.get('key'));
  dialog = el('dialog', { class: 'try-it', 'aria-labelledby': 'try-it-title' });
  document.body.append(dialog);
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close(); // a click on the backdrop
  });
  waitForHydration(document.getElementById('redoc') || document.body);
}

start();
