// Each import registers one subcommand with main.ts.
import './dev.ts';
import './server.ts';
import './workflow.ts';
import './retry-simulate.ts';
