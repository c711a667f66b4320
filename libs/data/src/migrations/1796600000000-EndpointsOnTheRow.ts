import { Table, TableColumn, TableForeignKey, type MigrationInterface, type QueryRunner } from 'typeorm';

/** The endpoints' columns before this migration (live_endpoints), as read back per row. */
interface EndpointRow {
  live_lesson_id: string;
  name: string;
  position: number | string;
  image: string;
  ports: string;
  presentations: string;
  configuration_type: string;
  configuration_file: string;
  ssh_user: string;
  ssh_password: string;
  host: string | null;
  readiness: string | null;
  up_at: number | string | null;
}

const jsonColumn = (name: string, empty: string): TableColumn => new TableColumn({ name, type: 'text', default: `'${empty}'` });
const placeholders = (runner: QueryRunner, count: number): string[] =>
  Array.from({ length: count }, (_, i) => (runner.connection.options.type === 'postgres' ? `$${i + 1}` : '?'));

/**
 * A live lesson's endpoints on its own row, as JSON: their definitions (`endpoints`), their Service
 * addresses (`endpoint_hosts`, written with BOOTING) and their up times (`endpoint_up_at`, each written
 * with the health count in one statement). The lesson is then one row: written in one INSERT, read in one
 * SELECT, claimed with everything in one UPDATE. Existing endpoints move onto their rows.
 */
export class EndpointsOnTheRow1796600000000 implements MigrationInterface {
  name = 'EndpointsOnTheRow1796600000000';

  async up(runner: QueryRunner): Promise<void> {
    const rows = (await runner.query('SELECT * FROM live_endpoints ORDER BY live_lesson_id, position')) as EndpointRow[];
    await runner.addColumns('live_lessons', [jsonColumn('endpoints', '[]'), jsonColumn('endpoint_hosts', '{}'), jsonColumn('endpoint_up_at', '{}')]);
    const byLesson = new Map<string, EndpointRow[]>();
    for (const row of rows) byLesson.set(row.live_lesson_id, [...(byLesson.get(row.live_lesson_id) ?? []), row]);
    const [endpoints, hosts, upAt, id] = placeholders(runner, 4);
    for (const [lesson, endpointRows] of byLesson) {
      const stored = endpointRows.map((row) => ({
        name: row.name,
        position: Number(row.position),
        image: row.image,
        ports: JSON.parse(row.ports) as unknown,
        presentations: JSON.parse(row.presentations) as unknown,
        configurationType: row.configuration_type,
        configurationFile: row.configuration_file,
        sshUser: row.ssh_user,
        sshPassword: row.ssh_password,
        ...(row.readiness === null ? {} : { readiness: JSON.parse(row.readiness) as unknown }),
      }));
      const by = (value: (row: EndpointRow) => unknown) =>
        JSON.stringify(Object.fromEntries(endpointRows.filter((row) => value(row) !== null).map((row) => [row.name, value(row)])));
      await runner.query(`UPDATE live_lessons SET endpoints = ${endpoints}, endpoint_hosts = ${hosts}, endpoint_up_at = ${upAt} WHERE id = ${id}`, [
        JSON.stringify(stored),
        by((row) => row.host),
        by((row) => (row.up_at === null ? null : Number(row.up_at))),
        lesson,
      ]);
    }
    await runner.dropTable('live_endpoints');
  }

  async down(runner: QueryRunner): Promise<void> {
    const lessons = (await runner.query('SELECT id, endpoints, endpoint_hosts, endpoint_up_at FROM live_lessons')) as {
      id: string;
      endpoints: string;
      endpoint_hosts: string;
      endpoint_up_at: string;
    }[];
    // The columns go first: on SQLite, dropping them rebuilds live_lessons, which would cascade to endpoint rows already written.
    await runner.dropColumns('live_lessons', ['endpoint_up_at', 'endpoint_hosts', 'endpoints']);
    await runner.createTable(
      new Table({
        name: 'live_endpoints',
        columns: [
          { name: 'live_lesson_id', type: 'varchar', length: '40', isPrimary: true },
          { name: 'name', type: 'varchar', length: '63', isPrimary: true },
          { name: 'position', type: 'integer' },
          ...['image', 'ports', 'presentations'].map((name) => ({ name, type: 'text' })),
          { name: 'configuration_type', type: 'varchar', length: '16' },
          ...['configuration_file', 'ssh_user', 'ssh_password'].map((name) => ({ name, type: 'text' })),
          { name: 'host', type: 'varchar', length: '64', isNullable: true },
          { name: 'readiness', type: 'text', isNullable: true },
          { name: 'up_at', type: 'bigint', isNullable: true },
        ],
        foreignKeys: [
          new TableForeignKey({ columnNames: ['live_lesson_id'], referencedTableName: 'live_lessons', referencedColumnNames: ['id'], onDelete: 'CASCADE' }),
        ],
      }),
    );
    const values = placeholders(runner, 13).join(', ');
    for (const lesson of lessons) {
      const hosts = JSON.parse(lesson.endpoint_hosts) as Record<string, string>;
      const upAt = JSON.parse(lesson.endpoint_up_at) as Record<string, number>;
      for (const endpoint of JSON.parse(lesson.endpoints) as Record<string, unknown>[]) {
        const name = endpoint.name as string;
        await runner.query(
          `INSERT INTO live_endpoints (live_lesson_id, name, position, image, ports, presentations, configuration_type, configuration_file, ssh_user, ssh_password, host, readiness, up_at) VALUES (${values})`,
          [
            lesson.id,
            name,
            endpoint.position,
            endpoint.image,
            JSON.stringify(endpoint.ports),
            JSON.stringify(endpoint.presentations),
            endpoint.configurationType,
            endpoint.configurationFile,
            endpoint.sshUser,
            endpoint.sshPassword,
            hosts[name] ?? null,
            endpoint.readiness === undefined ? null : JSON.stringify(endpoint.readiness),
            upAt[name] ?? null,
          ],
        );
      }
    }
  }
}
