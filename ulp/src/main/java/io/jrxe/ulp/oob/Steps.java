package io.jrxe.ulp.oob;

import java.util.List;

/**
 * The callbacks of the perftest sessions ({@link PerftestBwSession}, {@link PerftestLatSession}) run through here so
 * that any failure of the verbs side becomes an {@link OobException} saying which step failed.
 */
final class Steps
{
    private Steps()
    {
    }

    /** A callback that returns a value. */
    @FunctionalInterface
    interface Call<T>
    {
        T run() throws Exception;
    }

    /** A callback without a value. */
    @FunctionalInterface
    interface Action
    {
        void run() throws Exception;
    }

    static <T> T call(final String what, final Call<T> step) throws OobException
    {
        try
        {
            return step.run();
        }
        catch (final OobException ex)
        {
            throw ex;
        }
        catch (final Exception ex)
        {
            throw new OobException("could not " + what + " for the perftest peer: " + ex.getMessage(), ex);
        }
    }

    static void run(final String what, final Action step) throws OobException
    {
        call(what, () ->
        {
            step.run();
            return null;
        });
    }

    /** The key messages of the second exchange must repeat the first (perftest re-sends the same structs). */
    static void checkSame(final List<PerftestDest> first, final List<PerftestDest> again) throws OobException
    {
        if (!first.equals(again))
        {
            // the key messages carry no QP count: a peer with more QPs sends its second QP where the repeat is due
            throw new OobException("the peer changed its QP data between hand-shakes (do both sides run the same " +
                "test with the same -q?): first " + first + ", then " + again);
        }
    }
}
