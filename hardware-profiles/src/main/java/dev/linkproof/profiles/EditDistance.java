package dev.linkproof.profiles;

/**
 * Levenshtein distance between two short strings (keys, ids), for "did you mean" suggestions: a
 * profile's misspelt key, a misspelt configuration key. Two rows; run once per unknown key.
 */
public final class EditDistance {
    private EditDistance() {}

    public static int between(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
