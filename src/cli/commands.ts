// Each import registers one subcommand with main.ts.
import './dev.ts';
import './server.ts';
import './api-key.ts';
import './workflow.ts';
import './retry-simulate.ts';
import './schedule.ts';
import './search-attribute.ts';
import './namespace.ts';
import './codec-server.ts';
