import net from 'node:net';

/** A TCP port free on loopback now (the OS picks it; a child process then listens on it). */
export const freePort = (): Promise<number> =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
