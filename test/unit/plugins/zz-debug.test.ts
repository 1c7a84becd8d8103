import net from 'node:net';
describe('dbg', function () {
  before(async function () {
    console.log('before running');
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port: 6399, timeout: 500 });
      socket.once('connect', () => resolve(true));
      socket.once('error', (e) => { console.log('err', e.message); resolve(false); });
    });
    console.log('reachable', ok);
    if (!ok) this.skip();
  });
  it('x', () => { console.log('ran x'); });
});
