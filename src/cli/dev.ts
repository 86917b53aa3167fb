import { register } from './main.ts';

register({
  name: 'dev',
  summary: 'Start a local server on an embedded SQLite file (./.steadfast/dev.sqlite)',
  async run(argv) {
    if (argv.includes('--help') || argv.includes('-h')) {
      console.log('Usage: steadfast dev [--port 7233] [--host 127.0.0.1] [--db ./.steadfast/dev.sqlite]');
      return 0;
    }
    console.error('steadfast dev: the engine is not built yet in this version; nothing to start.');
    return 1;
  },
});
