/** The Linkproof test engine itself (LinkproofTestEngine, found through ServiceLoader): it wires the rooms below and holds nothing else. */
package dev.linkproof.engine;
