import inspector from 'node:inspector';
import fs from 'node:fs';
const s = new inspector.Session();
s.connect();
s.post('Profiler.enable');
s.post('Profiler.setSamplingInterval', { interval: 200 });
s.post('Profiler.start');
const start = Date.now();
process.on('exit', () => {
  s.post('Profiler.stop', (err, { profile }) => {
    if (!err) fs.writeFileSync(`/tmp/prof/${process.argv[1].split('/').pop()}-${process.pid}.cpuprofile`, JSON.stringify(profile));
  });
});
