package dev.quarry.engine.index;

import java.util.Arrays;

/**
 * Where codes go when they are kept list after list: each list's codes in the order given (document
 * order), those filed in no list last. Both the codes' file ({@link CodesWriter}) and the first
 * pass's copy of a segment written before it lay their codes out so.
 *
 * @param starts the first slot of each list, then of the bucket of none, then the slot count
 * @param valueOf each slot's value: its index in the buckets this was made from
 */
public record ListSlots(int[] starts, int[] valueOf) {
  /**
   * The slots of values whose buckets are {@code bucketOf} (a list from 0 to {@code lists} - 1,
   * {@code lists} for none, or -1 for a value without a slot): a stable counting sort.
   */
  public static ListSlots of(int[] bucketOf, int lists) {
    int[] starts = new int[lists + 2];
    for (int b : bucketOf) {
      if (b >= 0) {
        starts[b + 1]++;
      }
    }
    for (int l = 0; l <= lists; l++) {
      starts[l + 1] += starts[l];
    }
    int[] next = Arrays.copyOf(starts, lists + 1);
    int[] valueOf = new int[starts[lists + 1]];
    for (int i = 0; i < bucketOf.length; i++) {
      if (bucketOf[i] >= 0) {
        valueOf[next[bucketOf[i]]++] = i;
      }
    }
    return new ListSlots(starts, valueOf);
  }
}
