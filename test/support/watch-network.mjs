// Preloaded into a wikitape process by the no-network test: reports every outgoing connection
// attempt (TCP, and DNS look-ups) on stderr, so the test can prove replay opens none.
import net from 'node:net';
import dns from 'node:dns';

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const o = typeof args[0] === 'object' && args[0] !== null ? args[0] : { port: args[0], host: args[1] };
  process.stderr.write(`OUTBOUND ${o.path ?? `${o.host ?? 'localhost'}:${o.port}`}\n`);
  return connect.apply(this, args);
};
const lookup = dns.lookup;
dns.lookup = function (host, ...rest) {
  process.stderr.write(`DNS ${host}\n`);
  return lookup.call(this, host, ...rest);
};
