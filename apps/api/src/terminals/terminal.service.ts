import type { Server } from 'node:http';
import { type BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { InjectConfig, type AntidoteConfig } from '@antidote/config';
import { DataManager } from '@antidote/data';
import type { RequestSite } from '../http/request-site.js';
import { openSshShell } from './ssh-shell.js';
import { TerminalGateway } from './terminal-gateway.js';

/** The api's terminals: the gateway on its HTTP server, with the database and real SSH; all closed before the server stops. */
@Injectable()
export class TerminalService implements BeforeApplicationShutdown {
  readonly gateway: TerminalGateway;

  constructor(@Inject(DataManager) data: DataManager, @InjectConfig() config: AntidoteConfig) {
    this.gateway = new TerminalGateway(config.api.terminals, (id) => data.liveLessons.find(id), openSshShell);
  }

  attach(server: Server, site: RequestSite): void {
    this.gateway.attach(server, site);
  }

  beforeApplicationShutdown(): void {
    this.gateway.closeAll();
  }
}
