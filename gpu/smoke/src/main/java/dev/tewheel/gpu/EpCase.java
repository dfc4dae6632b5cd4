package dev.tewheel.gpu;

import dev.tewheel.runtime.ncclep.EpLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One case of the expert-parallel run (issue 24): an algorithm, a layout, hidden size and tokens per rank, with or
 * without a masked rank. The problem is fixed ({@link #E} experts, top-{@link #K}) and known in closed form, so every
 * rank can check every element it receives and every element combine gives back:
 * <ul>
 *   <li>token t of rank q carries q+1, t mod 64 and t / 64 in its first three elements (which identify it in any row
 *       order) and ((131q + 7t + 3c) mod 61) - 30 in element c from 3 on: small integers, exact in bfloat16;
 *   <li>it goes to the experts e0 = (3t + q) mod E and e1 = (e0 + 1 + t mod (E-1)) mod E, with weight 1/2 each, so
 *       tokens of every rank reach experts of every rank;
 *   <li>even experts are the identity and odd experts scale by 2, so combine must give back the token times
 *       1/2 s(e0) + 1/2 s(e1) (1, 1.5 or 2; with a masked rank, only the experts of the ranks still active count).
 * </ul>
 */
record EpCase(String name, boolean highThroughput, EpLayout layout, int hidden, int tokens, boolean masked) {
  static final int E = 8;
  static final int K = 2;
  static final float WEIGHT = 0.5f;

  static final List<EpCase> ALL = List.of(
      ll(EpLayout.EXPERT_MAJOR, 1024, 128, false),
      ll(EpLayout.EXPERT_MAJOR, 7168, 128, false),
      ll(EpLayout.RANK_MAJOR, 1024, 128, false),
      ll(EpLayout.RANK_MAJOR, 7168, 128, false),
      ht(EpLayout.EXPERT_MAJOR, 1024, 128),
      ht(EpLayout.EXPERT_MAJOR, 7168, 4096),
      ht(EpLayout.FLAT, 1024, 128),
      ht(EpLayout.FLAT, 7168, 4096),
      ll(EpLayout.EXPERT_MAJOR, 1024, 128, true));

  private static EpCase ll(EpLayout layout, int hidden, int tokens, boolean masked) {
    return new EpCase(name("ll", layout, hidden, tokens, masked), false, layout, hidden, tokens, masked);
  }

  private static EpCase ht(EpLayout layout, int hidden, int tokens) {
    return new EpCase(name("ht", layout, hidden, tokens, false), true, layout, hidden, tokens, false);
  }

  private static String name(String algorithm, EpLayout layout, int hidden, int tokens, boolean masked) {
    return algorithm + "-" + layoutName(layout) + (masked ? "-mask" : "") + "-h" + hidden + "-t" + tokens;
  }

  static String layoutName(EpLayout layout) {
    return switch (layout) {
      case EXPERT_MAJOR -> "em";
      case RANK_MAJOR -> "rm";
      case FLAT -> "flat";
      case UNSET -> "unset";
    };
  }

  /** {@code all}, or a comma-separated list of case names or name prefixes ({@code ll-em}, {@code ht}). */
  static List<EpCase> select(String spec) {
    if (spec == null || spec.isBlank() || spec.equals("all")) {
      return ALL;
    }
    List<EpCase> chosen = new ArrayList<>();
    for (String part : spec.split(",")) {
      String p = part.strip().toLowerCase(Locale.ROOT);
      List<EpCase> matching = ALL.stream().filter(c -> c.name().startsWith(p)).toList();
      if (matching.isEmpty()) {
        throw new IllegalArgumentException("--cases: no case is named " + p + "; the cases are "
            + ALL.stream().map(EpCase::name).toList());
      }
      matching.stream().filter(c -> !chosen.contains(c)).forEach(chosen::add);
    }
    return chosen;
  }

  static int expert(int q, int t, int j) {
    int e0 = (3 * t + q) % E;
    return j == 0 ? e0 : (e0 + 1 + t % (E - 1)) % E;
  }

  static float value(int q, int t, int c) {
    return switch (c) {
      case 0 -> q + 1;
      case 1 -> t % 64;
      case 2 -> t / 64;
      default -> Math.floorMod(131 * q + 7 * t + 3 * c, 61) - 30;
    };
  }

  static float scale(int expert) {
    return expert % 2 == 0 ? 1f : 2f;
  }

  static short bf16(float v) {
    int bits = Float.floatToRawIntBits(v);
    return (short) ((bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16); // round to nearest, ties to even
  }

  static float fromBf16(short v) {
    return Float.intBitsToFloat((v & 0xFFFF) << 16);
  }
}
