/**
 * What every hand-written FFM binding shares: library lookup, setup-path downcalls, status calls, closing
 * descriptors. The bindings themselves live with their transport or GPU runtime.
 */
package dev.linkproof.transfer.nativeaccess;
