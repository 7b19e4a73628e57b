// A logged-in client of a live MediaWiki's API for the populate scripts: cookies kept by hand,
// formatversion=2 answers, an error answer thrown.
/** Logs in with a bot password; returns `api(params, { post, body })` and `write(params, { body })` (a POST with the CSRF token). */
export async function connect(apiUrl, user, password) {
  const jar = new Map();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (res) => {
    for (const c of res.headers.getSetCookie?.() ?? []) {
      const [kv] = c.split(';'); const i = kv.indexOf('=');
      const k = kv.slice(0, i), v = kv.slice(i + 1);
      if (v === 'deleted' || v === '') jar.delete(k); else jar.set(k, v);
    }
  };
  async function api(params, { post = false, body } = {}) {
    const p = new URLSearchParams({ format: 'json', formatversion: '2', ...params });
    let res;
    if (!post) res = await fetch(`${apiUrl}?${p}`, { headers: { cookie: cookieHeader() } });
    else {
      let b = body;
      if (!b) b = p; else for (const [k, v] of p) b.append(k, v);
      res = await fetch(apiUrl, { method: 'POST', body: b, headers: { cookie: cookieHeader() } });
    }
    keep(res);
    const j = await res.json();
    if (j.error) throw new Error(`${JSON.stringify(params).slice(0, 200)} -> ${j.error.code}: ${j.error.info}`);
    return j;
  }
  const lt = (await api({ action: 'query', meta: 'tokens', type: 'login' })).query.tokens.logintoken;
  const login = await api({ action: 'login', lgname: user, lgpassword: password, lgtoken: lt }, { post: true });
  if (login.login.result !== 'Success') throw new Error(JSON.stringify(login));
  const csrf = (await api({ action: 'query', meta: 'tokens' })).query.tokens.csrftoken;
  return { api, write: (params, { body } = {}) => api({ ...params, token: csrf }, { post: true, body }) };
}
