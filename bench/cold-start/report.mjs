// Preloaded into every measured process (`node --import ./report.mjs script.mjs`): at exit it
// writes the process's own CPU (user + system since start), peak RSS, RSS at exit and the marks
// the script set (`globalThis.coldMark(name)`: ms since process start and CPU ms at that point)
// as one JSON line to file descriptor 3, which the runner reads. Run by hand it writes nothing.
import { writeSync } from 'node:fs';

const marks = [];
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
globalThis.coldMark = (name) => marks.push([name, Math.round(performance.now() * 10) / 10, Math.round(cpuMs() * 10) / 10]);
globalThis.coldMark('preload');
if (process.env.COLD_START_REPORT_FD === '3') {
  process.on('exit', () => {
    globalThis.coldMark('exit');
    const r = process.resourceUsage();
    const report = {
      cpuMs: (r.userCPUTime + r.systemCPUTime) / 1000,
      maxRssMb: r.maxRSS / 1024,
      rssMb: process.memoryUsage.rss() / 1048576,
      marks,
    };
    writeSync(3, `${JSON.stringify(report)}\n`);
  });
}
