// A Node service's side of a cache shared with redkit-cache's format(PLAIN_JSON), as such a service writes it:
// ioredis, JSON.stringify / JSON.parse, JSON null as "not found", a TTL on every SET. Run by NodeSharedCacheIT.
//
//   node shared-cache.js HOST PORT write KEY ID NAME PRICE_MINOR UPDATED_AT TTL_MS
//       SET KEY to a product (money as integer minor units, time a Date that JSON.stringify writes as RFC 3339)
//   node shared-cache.js HOST PORT absent KEY TTL_MS
//       SET KEY to the "not found" marker, JSON null
//   node shared-cache.js HOST PORT read KEY
//       GET and PTTL KEY, JSON.parse the value, and print on stdout one JSON line saying what it found
'use strict';
const Redis = require('ioredis');

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

async function main([host, port, command, key, ...args]) {
  const redis = new Redis({ host, port: Number(port), lazyConnect: true, maxRetriesPerRequest: 0 });
  await redis.connect();
  try {
    if (command === 'write') {
      const [id, name, priceMinor, updatedAt, ttlMs] = args;
      // A field redkit's type does not have: a Node service may know more than the Java one.
      const product = { id: Number(id), name, priceMinor: Number(priceMinor), updatedAt: new Date(updatedAt),
        source: 'node' };
      await redis.set(key, JSON.stringify(product), 'PX', Number(ttlMs));
    } else if (command === 'absent') {
      await redis.set(key, JSON.stringify(null), 'PX', Number(args[0]));
    } else if (command === 'read') {
      const [raw, pttl] = await redis.multi().getBuffer(key).pttl(key).exec().then((r) => r.map(([, v]) => v));
      console.log(JSON.stringify(describe(raw, pttl)));
    } else {
      throw new Error('unknown command ' + command);
    }
  } finally {
    redis.disconnect();
  }
}

function describe(raw, pttl) {
  if (raw === null) {
    return { found: false, parsed: false, notFound: false, pttl };
  }
  let value;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch (e) {
    // What a cache-aside does with an entry it cannot read: a miss, then its own SET over it.
    return { found: true, parsed: false, notFound: false, pttl, error: e.message };
  }
  if (value === null) {
    return { found: true, parsed: true, notFound: true, pttl };
  }
  return {
    found: true, parsed: true, notFound: false, pttl,
    id: value.id, name: value.name, priceMinor: value.priceMinor,
    priceIsInteger: Number.isInteger(value.priceMinor),
    updatedAt: value.updatedAt,
    updatedAtIsRfc3339: typeof value.updatedAt === 'string' && RFC3339.test(value.updatedAt),
    updatedAtMillis: Date.parse(value.updatedAt),
  };
}

main(process.argv.slice(2)).catch((e) => {
  console.error(e.stack || String(e));
  process.exit(1);
});
