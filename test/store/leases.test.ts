import { after } from 'node:test';
import { makeMemoryKv, redisStores } from './harness.js';
import { runLeasesContract } from './leases-contract.js';

const stores = redisStores('leases');
after(() => stores.cleanup());

runLeasesContract('MemoryKv', makeMemoryKv);
runLeasesContract('RedisKv', stores.makeKv);
