/**
 * Test support shared by the module's coverage-guided fuzz targets (Jazzer): a buffer that fails any read outside
 * the region the code under test was given, and an encoder that writes the bytes a {@code FuzzedDataProvider}
 * turns back into chosen values, so that seed inputs can be written as scenarios instead of guessed.
 */
package io.jrxe.ulp.fuzz;
