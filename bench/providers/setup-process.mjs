// One setup of one provider in its own process (`setup-process.mjs <provider> <setup index>`): it
// builds its client, says { ready }, then per { block: n, stream } runs n calls one after another
// (each awaited, a stream read to its end), checks every answer, flushes, and replies with the
// block's CPU (user + system of this process) and wall µs per call.
const [providerName, index] = process.argv.slice(2);
const provider = await import(`./${providerName}.mjs`);
const setup = provider.setups[Number(index)];
const ctx = JSON.parse(process.env.BENCH_CONTEXT);
const { client, flush } = await setup.create(ctx);

process.on('message', async (msg) => {
  if (msg === 'close') return process.exit(0);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < msg.block; i++) {
    const text = await provider.call(client, msg.stream);
    if (text !== provider.answer) {
      process.send({ error: `${setup.name}: unexpected answer ${JSON.stringify(text)}` });
      return;
    }
  }
  await flush();
  const cpu = process.cpuUsage(c0);
  process.send({ cpu: (cpu.user + cpu.system) / msg.block, wall: ((performance.now() - t0) * 1000) / msg.block });
});
process.send({ ready: true });
