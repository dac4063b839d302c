// Observing a receiver through PostgreSQL (one throwaway server for the file): the faults of the
// reference receiver that rest on its records caught through its database (examples/observe/supabase-payments) and
// through a command observer, a correct receiver all PASS (receiver-on-sql.ts); every bad input
// named before any case, trouble during a run an ERROR of that case only (bad-input.ts).
import { useDatabaseServer } from '../support/databases.ts';
import { describeNeeding } from '../support/programs.ts';
import { badInputSuite } from './bad-input.ts';
import { receiverOnSqlSuite } from './receiver-on-sql.ts';

describeNeeding(['postgresql'], 'observing a receiver through PostgreSQL', () => {
  const server = useDatabaseServer('postgresql');
  receiverOnSqlSuite('postgresql', server, ['sql', 'command']);
  badInputSuite('postgresql', server);
});
