// obs's options in every foreign-tracer scenario: the test's `OBS_INIT_OPTIONS` over a fast flush;
// `NO_OBS=1` runs the app without obs, for the app tracer's own baseline.
const noObs = process.env.NO_OBS === '1';

function obsInitOptions() {
  return { flushInterval: 0.05, flushOnExit: false, ...JSON.parse(process.env.OBS_INIT_OPTIONS ?? '{}') };
}

module.exports = { noObs, obsInitOptions };
