package io.jrxe.ulp.cmapps;

/**
 * Runs every clean-up step of a tool even when one fails, and reports failures without hiding the one that ended
 * the run: a step's failure is attached to the run's failure, or, after a clean run, the first is thrown by
 * {@link #finish()}.
 */
final class Teardown
{
    private final RuntimeException failure;
    private RuntimeException problem;

    /**
     * @param failure what ended the run, or null
     */
    Teardown(final RuntimeException failure)
    {
        this.failure = failure;
    }

    /**
     * @param step one clean-up step
     * @return this
     */
    Teardown step(final Runnable step)
    {
        try
        {
            step.run();
        }
        catch (final RuntimeException e)
        {
            if (null == problem)
            {
                problem = e;
            }
            else
            {
                problem.addSuppressed(e);
            }
        }
        return this;
    }

    /**
     * @throws RuntimeException the first step's failure, when the run itself did not fail
     */
    void finish()
    {
        if (null == problem)
        {
            return;
        }
        if (null != failure)
        {
            failure.addSuppressed(problem);
            return;
        }
        throw problem;
    }
}
