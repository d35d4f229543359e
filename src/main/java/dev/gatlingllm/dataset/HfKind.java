package dev.gatlingllm.dataset;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The Hugging Face datasets vLLM knows, by shape: which ids have it, which columns it needs,
 * and how a row becomes a prompt (and a reference reply or output length).
 */
enum HfKind {

  /** ShareGPT-style: {@code conversations} list of {@code {from, value}} turns. */
  CONVERSATION("ShareGPT-style conversations", List.of("conversations"), Output.REPLY, null,
      1024, 2048, "train", "Aeala/ShareGPT_Vicuna_unfiltered") {
    @Override
    Candidate candidate(Map<String, Object> row, String where) {
      return conversation(row, row.get("image") == null ? null
          : () -> Map.of(MM_CONTENT, List.of(HfMedia.imagePart(row.get("image"), where))));
    }

    @Override
    List<String> optionalColumns() {
      return List.of("image");
    }
  },

  /** LLaVA-OneVision: ShareGPT-style {@code conversations} about an {@code image}. */
  MULTIMODAL_CONVERSATION("image conversations", List.of("conversations", "image"),
      Output.REPLY, null, 1024, 2048, "train", "lmms-lab/LLaVA-OneVision-Data") {
    @Override
    Candidate candidate(Map<String, Object> row, String where) {
      return CONVERSATION.candidate(row, where);
    }
  },

  /** VisionArena-Chat: the first message of the {@code conversation} and its first image. */
  VISION_ARENA_CHAT("VisionArena chat", List.of("conversation", "images"), Output.FIXED, 128,
      0, 0, "train", "lmarena-ai/VisionArena-Chat") {
    @Override
    Candidate candidate(Map<String, Object> row, String where) {
      return firstImageChat(row, "conversation", where);
    }
  },

  /** VisionArena bench: the first message of {@code turns} and its first image. */
  VISION_ARENA_BENCH("VisionArena bench", List.of("turns", "images"), Output.FIXED, 128, 0, 0,
      "train", "lmarena-ai/vision-arena-bench-v0.1") {
    @Override
    Candidate candidate(Map<String, Object> row, String where) {
      return firstImageChat(row, "turns", where);
    }
  },

  /** MMVU: a {@code question} with its lettered {@code choices}, about a {@code video}. */
  MMVU("MMVU", List.of("question", "choices", "video"), Output.FIXED, 128, 0, 0, "validation",
      "yale-nlp/MMVU") {
    @Override
    Candidate candidate(Map<String, Object> row, String where) {
      String question = text(row, "question");
      if (question == null || !(row.get("choices") instanceof Map<?, ?> choices)
          || row.get("video") == null) {
        return null;
      }
      StringBuilder prompt = new StringBuilder(question);
      choices.forEach((letter, choice) -> {
        if (choice != null) {
          prompt.append(' ').append(letter).append('.').append(choice);
        }
      });
      Object video = row.get("video");
      return new Candidate(prompt.toString(), null, Double.NaN,
          () -> Map.of(MM_CONTENT, List.of(HfMedia.videoPart(video, where))));
    }
  },

  /** MMStar: the {@code question} up to its "Options:" list, about an {@code image}. */
  MMSTAR("MMStar", List.of("question", "image"), Output.FIXED, 128, 0, 0, "val",
      "Lin-Chen/MMStar") {
    @Override
    Candidate candidate(Map<String, Object> row, String where) {
      String question = text(row, "question");
      Object image = row.get("image");
      if (question == null || image == null) {
        return null;
      }
      int options = question.indexOf("Options:");
      String prompt = (options < 0 ? question : question.substring(0, options)).strip();
      return new Candidate(prompt, null, Double.NaN,
          () -> Map.of(MM_CONTENT, List.of(HfMedia.imagePart(image, where))));
    }
  },

  /** InstructCoder: code {@code input} plus an edit {@code instruction}. */
  INSTRUCT_CODER("InstructCoder", List.of("input", "instruction"), Output.FIXED, 200, 0, 0,
      "train", "likaixin/InstructCoder") {
    @Override
    Candidate candidate(Map<String, Object> row, String where) {
      String input = text(row, "input");
      String instruction = text(row, "instruction");
      if (input == null || instruction == null) {
        return null;
      }
      return new Candidate(input + "\n\n" + instruction
          + " Output only the code, without any explanation.", null, Double.NaN);
    }
  },

  /** AIMO / NuminaMath: a {@code problem} and its reference {@code solution}. */
  AIMO("AIMO", List.of("problem", "solution"), Output.REPLY, null, 2048, 32000, "train",
      "AI-MO/aimo-validation-aime", "AI-MO/NuminaMath-1.5", "AI-MO/NuminaMath-CoT") {
    @Override
    Candidate candidate(Map<String, Object> row, String where) {
      String problem = text(row, "problem");
      String solution = text(row, "solution");
      return problem == null || solution == null ? null
          : new Candidate(problem, solution, Double.NaN);
    }
  },

  /**
   * HumanEval: the function signature and docstring in {@code prompt}; the output length is
   * the tokens of its {@code canonical_solution}.
   */
  HUMAN_EVAL("HumanEval", List.of("task_id", "prompt", "canonical_solution"),
      Output.REPLY_UNPRUNED, null, 0, 0, "test", "openai/openai_humaneval",
      "openai_humaneval") {
    @Override
    Candidate candidate(Map<String, Object> row, String where) {
      String prompt = text(row, "prompt");
      String solution = text(row, "canonical_solution");
      return prompt == null || solution == null ? null
          : new Candidate(prompt, solution, Double.NaN);
    }
  },

  /**
   * GSM8K: a grade-school math {@code question}; the output length is the tokens of its worked
   * {@code answer}. The hub's subsets are {@code main} and {@code socratic}.
   */
  GSM8K("GSM8K", List.of("question", "answer"), Output.REPLY_UNPRUNED, null, 0, 0, "train",
      "openai/gsm8k", "gsm8k") {
    @Override
    Candidate candidate(Map<String, Object> row, String where) {
      String question = text(row, "question");
      String answer = text(row, "answer");
      return question == null || answer == null ? null
          : new Candidate(question, answer, Double.NaN);
    }
  },

  /** MT-Bench: the first of the question's {@code turns}. */
  MT_BENCH("MT-Bench", List.of("turns"), Output.FIXED, 256, 0, 0, "train",
      "philschmid/mt-bench") {
    @Override
    Candidate candidate(Map<String, Object> row, String where) {
      if (!(row.get("turns") instanceof List<?> turns) || turns.isEmpty()
          || string(turns.get(0)) == null) {
        return null;
      }
      return new Candidate(string(turns.get(0)), null, Double.NaN);
    }
  },

  /** Blazedit: a {@code code} file, a {@code change_request} and its {@code norm_distance}. */
  BLAZEDIT("Blazedit", List.of("code", "change_request", "norm_distance"), Output.FIXED, 4000,
      0, 0, "train", "vdaita/edit_5k_char", "vdaita/edit_10k_char") {
    @Override
    Candidate candidate(Map<String, Object> row, String where) {
      String code = text(row, "code");
      String change = text(row, "change_request");
      if (code == null || change == null || !(row.get("norm_distance") instanceof Number d)) {
        return null;
      }
      String prompt = "Apply the change request below to this code file and write out the "
          + "complete new file.\n\nOriginal file:\n```python\n" + code + "\n```\n\n"
          + "Change request:\n" + change + "\n\nWrite the new code file in a \"New file\" "
          + "section below.";
      return new Candidate(prompt, null, d.doubleValue());
    }
  },

  /**
   * Zeta next-edit prediction: recent edit {@code events} and the {@code input} excerpt; the
   * reference {@code output} from its editable-region marker sets the output length.
   */
  NEXT_EDIT("next-edit prediction", List.of("events", "input", "output"), Output.REPLY_UNPRUNED,
      null, 0, 0, "train", "zed-industries/zeta") {
    @Override
    Candidate candidate(Map<String, Object> row, String where) {
      String events = text(row, "events");
      String input = text(row, "input");
      String output = text(row, "output");
      if (events == null || input == null || output == null || output.isEmpty()) {
        return null;
      }
      String prompt = "### Instruction:\nYou help a programmer by predicting their next edit: "
          + "read their recent edits, then rewrite the excerpt below with the edits that "
          + "should follow, keeping the cursor position in mind.\n\n### User Edits:\n\n"
          + events + "\n\n### User Excerpt:\n\n" + input + "\n\n### Response:\n\n";
      int region = output.indexOf("<|editable_region_start|>");
      // without the marker vLLM's slice keeps only the last character
      String reply = region >= 0 ? output.substring(region) : output.substring(output.length() - 1);
      return new Candidate(prompt, reply, Double.NaN);
    }
  },

  /** Speech recognition: an {@code audio} clip, transcribed with Whisper's preamble. */
  ASR("speech recognition", List.of("audio"), Output.FIXED, 128, 0, 0, "train",
      "openslr/librispeech_asr", "facebook/voxpopuli", "LIUM/tedlium", "edinburghcstr/ami",
      "speechcolab/gigaspeech", "kensho/spgispeech") {
    @Override
    Candidate candidate(Map<String, Object> row, String where) {
      if (row.get("audio") == null) {
        return null;
      }
      HfMedia.Audio audio = HfMedia.audio(row.get("audio"), where);
      // the clip's length is the measure --asr-min/max-audio-len-sec filter on
      return new Candidate(WHISPER_PREAMBLE, null, audio.seconds(),
          () -> Map.of(AUDIO, audio.wav()));
    }
  },

  /** MLPerf inference: a {@code system_prompt} and a {@code question}; {@code output} sets
   *  the output length. */
  MLPERF("MLPerf", List.of("system_prompt", "question", "output"), Output.REPLY_CHECKED, null,
      1024, 2048, "train", "mgoin/mlperf-inference-llama2-data",
      "mgoin/mlperf-inference-llama3.1-data") {
    @Override
    Candidate candidate(Map<String, Object> row, String where) {
      String system = text(row, "system_prompt");
      String question = text(row, "question");
      String output = text(row, "output");
      if (system == null || question == null || output == null) {
        return null;
      }
      return new Candidate(system + "\n\n" + question, output, Double.NaN);
    }
  };

  /** Feeder key of the chat content parts of multimodal rows (as {@code random-mm}). */
  static final String MM_CONTENT = RandomMultiModalDataset.MM_CONTENT;
  /** Feeder key of the WAV bytes of ASR rows, read by {@code LlmDsl.audio(..).fromDataset()}. */
  static final String AUDIO = "audio";
  /** The prompt vLLM counts for every ASR request (Whisper's transcription tokens). */
  static final String WHISPER_PREAMBLE =
      "<|startoftranscript|><|en|><|transcribe|><|notimestamps|>";

  /** Where a request's output length comes from. */
  enum Output {
    /** The kind's default, or the override. */
    FIXED,
    /** Tokens of the reference reply, pruned by length; an override replaces it unpruned. */
    REPLY,
    /** Tokens of the reference reply, never pruned; an override replaces it. */
    REPLY_UNPRUNED,
    /**
     * Tokens of the reference reply without special tokens, or the override; the pair is
     * pruned by length either way (MLPerf).
     */
    REPLY_CHECKED
  }

  /**
   * What one row contributes: the prompt, the reference reply when the output length comes
   * from it (else null), the row's measure that a range option filters on (Blazedit's edit
   * distance, an ASR clip's seconds; else NaN), the feeder extras (images,
   * audio; made only for rows that are sent), or why the row is skipped (else null).
   */
  record Candidate(String prompt, String reply, double measure,
      Supplier<Map<String, Object>> extras, String skipped) {

    Candidate(String prompt, String reply, double measure) {
      this(prompt, reply, measure, Map::of, null);
    }

    Candidate(String prompt, String reply, double measure,
        Supplier<Map<String, Object>> extras) {
      this(prompt, reply, measure, extras, null);
    }

    /** A row of the right shape that vLLM leaves out, and why. */
    static Candidate skipped(String reason) {
      return new Candidate("", null, Double.NaN, Map::of, reason);
    }
  }

  private final String label;
  private final List<String> columns;
  private final Output output;
  private final Integer defaultOutputLen;
  private final int maxPromptLen;
  private final int maxTotalLen;
  private final String defaultSplit;
  private final Set<String> ids;

  HfKind(String label, List<String> columns, Output output, Integer defaultOutputLen,
      int maxPromptLen, int maxTotalLen, String defaultSplit, String... ids) {
    this.label = label;
    this.columns = columns;
    this.output = output;
    this.defaultOutputLen = defaultOutputLen;
    this.maxPromptLen = maxPromptLen;
    this.maxTotalLen = maxTotalLen;
    this.defaultSplit = defaultSplit;
    this.ids = Set.of(ids);
  }

  /**
   * The row's prompt and reference, or null when the row does not have the shape;
   * {@code where} names the row in errors about its media.
   */
  abstract Candidate candidate(Map<String, Object> row, String where);

  String label() {
    return label;
  }

  /** The columns a row needs. */
  List<String> columns() {
    return columns;
  }

  /** Columns read when present, but not needed. */
  List<String> optionalColumns() {
    return List.of();
  }

  Output output() {
    return output;
  }

  /** Output length of {@link Output#FIXED} kinds when no override is given. */
  Integer defaultOutputLen() {
    return defaultOutputLen;
  }

  /** The hub split vLLM reads for this dataset when {@code --hf-split} is not given. */
  String defaultSplit() {
    return defaultSplit;
  }

  /** Whether requests carry images, videos or audio (chat or audio endpoints only). */
  boolean multimodal() {
    return this == MULTIMODAL_CONVERSATION || this == VISION_ARENA_CHAT
        || this == VISION_ARENA_BENCH || this == MMVU || this == MMSTAR || this == ASR;
  }

  /**
   * What this kind's requests carry, when the kind alone decides it; empty for ShareGPT-style
   * conversations, whose rows may or may not have an image.
   */
  Optional<DatasetContent> content() {
    if (this == CONVERSATION) {
      return Optional.empty();
    }
    if (this == ASR) {
      return Optional.of(DatasetContent.AUDIO);
    }
    return Optional.of(multimodal() ? DatasetContent.VISUAL : DatasetContent.TEXT);
  }

  int maxPromptLen() {
    return maxPromptLen;
  }

  int maxTotalLen() {
    return maxTotalLen;
  }

  static Optional<HfKind> byId(String id) {
    return Arrays.stream(values()).filter(k -> k.ids.contains(id)).findFirst();
  }

  /** The kind whose columns a file has; the more specific shapes are tried first. */
  static Optional<HfKind> byColumns(Collection<String> present) {
    return List.of(BLAZEDIT, NEXT_EDIT, INSTRUCT_CODER, MLPERF, MMVU, MMSTAR, AIMO,
            HUMAN_EVAL, GSM8K, VISION_ARENA_BENCH, MT_BENCH, VISION_ARENA_CHAT, MULTIMODAL_CONVERSATION,
            CONVERSATION, ASR).stream()
        .filter(k -> present.containsAll(k.columns)).findFirst();
  }

  static String supportedIds() {
    return Arrays.stream(values()).flatMap(k -> k.ids.stream())
        .collect(Collectors.toCollection(TreeSet::new)).toString();
  }

  static String shapes() {
    return Arrays.stream(values()).map(k -> k.label + " " + k.columns)
        .collect(Collectors.joining(", "));
  }

  private static Candidate conversation(Map<String, Object> row,
      Supplier<Map<String, Object>> media) {
    if (!(row.get("conversations") instanceof List<?> turns) || turns.size() < 2) {
      return null;
    }
    String prompt = turnText(turns.get(0));
    String reply = turnText(turns.get(1));
    if (prompt == null || reply == null) {
      return null;
    }
    return new Candidate(prompt, reply, Double.NaN, media == null ? Map::of : media);
  }

  /** VisionArena: {@code column[0][0].content} is the prompt, {@code images[0]} its image. */
  private static Candidate firstImageChat(Map<String, Object> row, String column,
      String where) {
    if (!(row.get(column) instanceof List<?> turns) || turns.isEmpty()
        || !(turns.get(0) instanceof List<?> messages) || messages.isEmpty()
        || !(row.get("images") instanceof List<?> images) || images.isEmpty()
        || images.get(0) == null) {
      return null;
    }
    String prompt = turnText(messages.get(0));
    Object image = images.get(0);
    return prompt == null ? null : new Candidate(prompt, null, Double.NaN,
        () -> Map.of(MM_CONTENT, List.of(HfMedia.imagePart(image, where))));
  }

  private static String text(Map<String, Object> row, String column) {
    return string(row.get(column));
  }

  /**
   * A text cell; raw bytes count as UTF-8 text, since some Parquet writers leave text
   * columns without the STRING annotation.
   */
  private static String string(Object value) {
    if (value instanceof String s) {
      return s;
    }
    return value instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : null;
  }

  /** A turn is {@code {"from", "value"}} (ShareGPT) or {@code {"role", "content"}}. */
  private static String turnText(Object turn) {
    if (turn instanceof Map<?, ?> map) {
      return string(map.containsKey("value") ? map.get("value") : map.get("content"));
    }
    return null;
  }
}
