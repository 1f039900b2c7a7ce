/**
 * The origin a browser on this machine reaches a server listening on `host`:`port` at. A wildcard
 * or loopback interface is `localhost`, the name people type and the banner shows; any other
 * interface is its own address.
 */
export function browserOrigin(host: string, port: number): string {
  const local = ['0.0.0.0', '::', '[::]', '127.0.0.1', '::1', '[::1]', 'localhost', ''].includes(host);
  const name = local ? 'localhost' : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}
