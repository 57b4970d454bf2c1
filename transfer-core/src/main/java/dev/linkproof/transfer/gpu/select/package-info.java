/**
 * Picks this process's GPU runtime by configuration ({@code linkproof.gpu.*}) or says why there is none:
 * the one package that knows both {@code gpu.cuda} and {@code gpu.hip}.
 */
package dev.linkproof.transfer.gpu.select;
