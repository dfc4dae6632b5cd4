/**
 * The search: what the API was given ({@code Config}), where the wheel_lib is (a folder, a class-path bundle), the
 * manifest's check of its files, the NCCL EP and TE libraries chosen ({@code Resolver}, {@code TeProvider}), TE's
 * native world ({@code Discovery}), the NCCL gate and NCCL EP's JIT preflight. Imports {@code internal.host} and
 * {@code internal.ffm}; loads nothing it keeps.
 */
package dev.tewheel.runtime.internal.search;
