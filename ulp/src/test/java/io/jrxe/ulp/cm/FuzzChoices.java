package io.jrxe.ulp.cm;

/**
 * The decisions of {@link CmFuzzer}, each named so that a seed can be written as a scenario
 * ({@code CmReceiveSeedsTest}); the fuzz target answers them from Jazzer's {@code FuzzedDataProvider}, which ignores
 * the names. Every decision's lowest value is its ordinary case (a well-formed MAD, the natural comm ID and TID,
 * the consumer accepting), so an input that runs out makes ordinary choices.
 */
interface FuzzChoices
{
    /** @return true while the input has decisions left */
    boolean more();

    /**
     * @param what the decision's name (a constant of {@link CmFuzzer} or {@link MadMaker})
     * @param min  lowest value, the ordinary case
     * @param max  highest value
     * @return a value in [min, max]
     */
    int pick(String what, int min, int max);

    /**
     * @param what the decision's name
     * @return any int
     */
    int anyInt(String what);

    /**
     * @param what the decision's name
     * @return any long
     */
    long anyLong(String what);

    /**
     * @param what the decision's name
     * @return true or false (false the ordinary case)
     */
    boolean flag(String what);
}
