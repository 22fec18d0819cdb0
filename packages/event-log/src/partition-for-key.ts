/**
 * Partition of a key: FNV-1a (32 bit) over the key's UTF-16 code units, modulo the partition count.
 * Every producer of a topic must use the same function and count, or one device's records would
 * land in two partitions and lose their order. (Kafka uses its own murmur2 partitioner instead.)
 */
export function partitionForKey(key: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % partitions;
}
