import test from 'ava';
import { hostAllowed } from '../mind/tools/httpFetch.js';

test('http_fetch allowlist: a host:port entry with the default port allows the URL that leaves the port out, and only that port', (t) => {
  t.true(hostAllowed(new URL('https://example.com/page'), ['example.com:443']));
  t.true(hostAllowed(new URL('https://EXAMPLE.com:443/'), ['Example.COM:443']));
  t.true(hostAllowed(new URL('http://localhost/'), ['localhost:80']));
  t.false(hostAllowed(new URL('http://example.com/'), ['example.com:443']), 'port 80 is not 443');
  t.false(hostAllowed(new URL('https://example.com:8443/'), ['example.com:443']));
  t.false(hostAllowed(new URL('https://example.com/'), ['example.com:80']));
  t.true(hostAllowed(new URL('http://127.0.0.1:8080/'), ['127.0.0.1:8080']));
  t.true(hostAllowed(new URL('http://example.com:8080/'), ['example.com']), 'a bare host allows any port');
  t.false(hostAllowed(new URL('http://example.com.evil.test/'), ['example.com']));
  t.false(hostAllowed(new URL('http://example.com@evil.test/'), ['example.com']));
});
