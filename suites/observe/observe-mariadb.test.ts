// Observing a receiver through MariaDB (one throwaway server for the file): the faults of the
// reference receiver that rest on its records caught through its database (examples/observe/laravel-orders), a correct
// receiver all PASS (receiver-on-sql.ts); every bad input named before any case, trouble during
// a run an ERROR of that case only (bad-input.ts).
import { useDatabaseServer } from '../support/databases.ts';
import { describeNeeding } from '../support/programs.ts';
import { badInputSuite } from './bad-input.ts';
import { receiverOnSqlSuite } from './receiver-on-sql.ts';

describeNeeding(['mariadb'], 'observing a receiver through MariaDB', () => {
  const server = useDatabaseServer('mariadb');
  receiverOnSqlSuite('mariadb', server, ['sql']);
  badInputSuite('mariadb', server);
});
