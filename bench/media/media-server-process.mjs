// The local obs server for the media bench, in its own process so that decoding the exports and
// storing the uploads run neither on the measured thread nor in its CPU time. Answers over IPC:
// 'stats' -> { spans, asks, uploads, reports, uploadedBytes } since the last 'stats' (then it
// forgets everything: uploads are held until a block ends, so a repeated image is not uploaded
// twice within a block), 'close'.
import { startObsServer } from '@obs/local-server';

const server = await startObsServer({ quiet: true });
process.on('message', (msg) => {
  if (msg === 'stats') {
    const { media } = server;
    process.send({
      spans: server.spans().length,
      asks: media.asks.length,
      uploads: media.uploads.length,
      reports: media.reports.length,
      uploadedBytes: media.uploads.reduce((n, u) => n + u.bytes.length, 0),
    });
    server.reset();
  } else if (msg === 'close') server.close().then(() => process.exit(0));
});
process.send({ url: server.url, publicKey: server.publicKey, secretKey: server.secretKey });
