/**
 * Which beacon networks a verifier trusts (docs/provably-fair.md §5.2): a network is trusted by all of
 * it — scheme, public key, genesis time, period — as the user supplies it, and its chain hash is
 * recomputed from those fields, never read from the statement. A statement naming a trusted chain
 * hash with any other field changed (a forger's own BLS key under drand quicknet's hash: F4) is refused.
 *
 * Two kinds of network have two chain-hash definitions:
 * - a drand network (quicknet): drand's `chain.Info.Hash()`, SHA-256 of be32(period) ‖ be64(genesis
 *   time) ‖ public key bytes ‖ group hash bytes ‖ UTF-8 beacon id (omitted for the id "default"), from
 *   the chain info its relays serve at `/<chainHash>/info`. The scheme is not hashed, so it is
 *   compared as a field of its own;
 * - a beacon of our own (packages/beacon): `localBeaconNetwork`'s hash of `scheme|key|genesis|period`.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { BEACON_SCHEME, type BeaconNetwork, localBeaconNetwork, QUICKNET } from './beacon';
import { bytesToHex, hexToBytes, isHex } from './bytes';

/** A drand chain info, as `GET https://api.drand.sh/<chainHash>/info` answers it. */
export interface DrandChainInfo {
  public_key: string;
  period: number;
  genesis_time: number;
  /** hex: the genesis seed of the group. */
  groupHash: string;
  schemeID: string;
  metadata?: { beaconID?: string };
  /** hex: the chain hash the relay claims; recomputed, and refused when it differs. */
  hash?: string;
}

/** A beacon of our own, by its fields (its chain hash follows from them). */
export interface LocalBeaconPin {
  scheme: string;
  publicKey: string;
  genesisTime: number;
  period: number;
  /** When given, it must be the hash recomputed from the fields. */
  chainHash?: string;
}

export type BeaconPin = DrandChainInfo | LocalBeaconPin;

const isDrand = (pin: BeaconPin): pin is DrandChainInfo => 'public_key' in pin;

/** drand's chain hash (hex) of a chain info. Throws RangeError for malformed fields. */
export function drandChainHash(info: DrandChainInfo): string {
  if (!isHex(info.public_key) || !isHex(info.groupHash))
    throw new RangeError('public_key and groupHash must be hex');
  if (!Number.isSafeInteger(info.period) || info.period < 1 || !Number.isSafeInteger(info.genesis_time))
    throw new RangeError('period and genesis_time must be whole seconds');
  const id = info.metadata?.beaconID ?? '';
  const key = hexToBytes(info.public_key);
  const group = hexToBytes(info.groupHash);
  const idBytes = id === '' || id === 'default' ? new Uint8Array() : new TextEncoder().encode(id);
  const bytes = new Uint8Array(12 + key.length + group.length + idBytes.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, info.period, false);
  view.setBigInt64(4, BigInt(info.genesis_time), false);
  bytes.set(key, 12);
  bytes.set(group, 12 + key.length);
  bytes.set(idBytes, 12 + key.length + group.length);
  return bytesToHex(sha256(bytes));
}

/**
 * The network a pin names, its chain hash recomputed. Throws TypeError (a caller's mistake: a pin
 * that is not a network of this scheme, or whose claimed hash is not the recomputed one).
 */
export function pinnedNetwork(pin: BeaconPin): BeaconNetwork {
  if (isDrand(pin)) {
    if (pin.schemeID !== BEACON_SCHEME)
      throw new TypeError(`beacon scheme ${pin.schemeID} is not ${BEACON_SCHEME}`);
    let chainHash: string;
    try {
      chainHash = drandChainHash(pin);
    } catch (error) {
      throw new TypeError(`not a drand chain info: ${(error as Error).message}`);
    }
    if (pin.hash !== undefined && pin.hash.toLowerCase() !== chainHash)
      throw new TypeError(`the chain info claims hash ${pin.hash}, but its fields hash to ${chainHash}`);
    return {
      scheme: BEACON_SCHEME,
      chainHash,
      publicKey: pin.public_key.toLowerCase(),
      genesisTime: pin.genesis_time,
      period: pin.period,
    };
  }
  if (pin.scheme !== BEACON_SCHEME)
    throw new TypeError(`beacon scheme ${pin.scheme} is not ${BEACON_SCHEME}`);
  if (!isHex(pin.publicKey, 96)) throw new TypeError('a beacon public key is 96 bytes of hex');
  if (!Number.isSafeInteger(pin.genesisTime) || !Number.isSafeInteger(pin.period) || pin.period < 1)
    throw new TypeError('genesis time and period must be whole seconds');
  const network = localBeaconNetwork(pin.publicKey.toLowerCase(), pin.genesisTime, pin.period);
  if (pin.chainHash !== undefined && pin.chainHash.toLowerCase() !== network.chainHash) {
    // quicknet's own fields, as GET /v1/signing-key names the network: the verifier's built-in pin.
    if (pin.chainHash === QUICKNET.chainHash && pin.publicKey === QUICKNET.publicKey) return QUICKNET;
    throw new TypeError(
      `the network claims chain hash ${pin.chainHash}, but its fields hash to ${network.chainHash} (for a drand network give its chain info)`,
    );
  }
  return network;
}

/**
 * A `--trust-beacon` text: `publicKey:genesisTime:period:scheme` (a beacon of our own), or JSON — a
 * drand chain info, a network `{scheme, publicKey, genesisTime, period[, chainHash]}`, or the answer of
 * GET /v1/signing-key (its `beacon`). Throws TypeError.
 */
export function parseBeaconPin(text: string): BeaconNetwork {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch (error) {
      throw new TypeError(`not JSON: ${(error as Error).message}`);
    }
    const value = json as Record<string, unknown>;
    const pin = (value.beacon && typeof value.beacon === 'object' ? value.beacon : value) as BeaconPin;
    return pinnedNetwork(pin);
  }
  const parts = trimmed.split(':');
  if (parts.length !== 4)
    throw new TypeError(
      'a beacon network is publicKey:genesisTime:period:scheme, or a JSON file (drand chain info)',
    );
  const [publicKey, genesis, period, scheme] = parts as [string, string, string, string];
  return pinnedNetwork({ scheme, publicKey, genesisTime: Number(genesis), period: Number(period) });
}

/** Field by field, how `named` differs from the trusted network of the same chain hash. */
export function networkDifferences(named: BeaconNetwork, trusted: BeaconNetwork): string[] {
  return (['scheme', 'publicKey', 'genesisTime', 'period'] as const)
    .filter((field) => String(named[field]).toLowerCase() !== String(trusted[field]).toLowerCase())
    .map((field) => `${field} ${String(named[field])} (the network's: ${String(trusted[field])})`);
}
