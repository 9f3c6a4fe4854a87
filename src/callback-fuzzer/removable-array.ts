import fc from 'fast-check';

/** What a removable array remembers of a value for its shrinks: fast-check's own context, when there is one. */
interface RemovableContext {
  inner: unknown;
}

/**
 * An array arbitrary that generates exactly what `fc.array(item, constraints)` generates (same
 * values for the same seed) and shrinks further: besides fast-check's own shrinks, every value
 * of more than `minLength` items is tried with each single item left out.
 *
 * fast-check's array shrinker drops items from the front, or keeps the first item and shrinks the
 * rest with the array's own `minLength`, so with `minLength: 1` the last item of an array
 * cannot go once the first is needed: a schedule `[a group of two deliveries, one more delivery]`
 * that fails because the receiver credits twice stayed at three deliveries instead of the group
 * alone. The removals are tried after fast-check's own shrinks, so a failure those already shrink
 * to its smallest form ends as it did.
 *
 * @example
 * const steps = removableArray(fc.constantFrom('deliver', 'replay'), { minLength: 1, maxLength: 8 });
 */
export function removableArray<T>(item: fc.Arbitrary<T>, constraints: { minLength: number; maxLength: number }): fc.Arbitrary<T[]> {
  return new RemovableArray(fc.array(item, constraints), constraints.minLength);
}

class RemovableArray<T> extends fc.Arbitrary<T[]> {
  constructor(
    private readonly inner: fc.Arbitrary<T[]>,
    private readonly minLength: number,
  ) {
    super();
  }

  override generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T[]> {
    const generated = this.inner.generate(mrng, biasFactor);
    return new fc.Value(generated.value_, { inner: generated.context } satisfies RemovableContext);
  }

  override canShrinkWithoutContext(value: unknown): value is T[] {
    return this.inner.canShrinkWithoutContext(value);
  }

  override shrink(value: T[], context: unknown): fc.Stream<fc.Value<T[]>> {
    const inner = (context as RemovableContext | undefined)?.inner;
    // A value without one of its items has no context of fast-check's: its items shrink from their values.
    const removals =
      value.length > this.minLength
        ? fc.Stream.of(...value.map((_, index) => new fc.Value([...value.slice(0, index), ...value.slice(index + 1)], { inner: undefined } satisfies RemovableContext)))
        : fc.Stream.nil<fc.Value<T[]>>();
    const own = this.inner.shrink(value, inner).map((shrunk) => new fc.Value(shrunk.value_, { inner: shrunk.context } satisfies RemovableContext));
    return own.join(removals);
  }
}
