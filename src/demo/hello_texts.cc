// Long texts of hello-world. Each is longer than the writer's 256-byte pack threshold and holds
// non-ASCII characters, so the writer stores them in packed payload files.
#include "demo/hello_parts.h"

namespace timef::demo::internal {

const char* const kCurationText =
    "Curation note — every value in this dataset is synthetic and computed in closed form, so "
    "two builds are byte-for-byte identical. The ECG leads follow a Gaussian PQRST template at "
    "72 beats per minute; lead II carries a NaN, +∞, −∞ and a negative zero at documented steps. "
    "Vital signs are sampled irregularly; the diary has no timeline at all. Prüfung bestanden ✓.";

const char* const kClassificationPrompt =
    "You are given a 160-second, two-lead electrocardiogram sampled at 250 Hz, together with a "
    "one-label-per-second rhythm track and an electrode-off flag. Decide which rhythm dominates "
    "the annotated episode between 60 s and 75 s. Answer with exactly one label from the rhythm "
    "vocabulary: « normal », « af » or « noise ». Ignore isolated artefacts such as NaN samples.";

const char* const kAnswerTarget =
    "Atrial fibrillation (AF) is an irregular, often rapid heart rhythm in which the atria "
    "quiver instead of contracting. On an ECG it shows as absent P waves, a wavy baseline and "
    "irregularly irregular R–R intervals. In this synthetic recording the episode is labelled "
    "from 60 s to 75 s; the waveform itself keeps a regular template — the label is what counts.";

const char* const kAnswerRationale =
    "The rhythm track switches from « normal » to « af » at 60 s and back at 75 s, and the "
    "episode annotation on the record and on lead I covers exactly that window with confidence "
    "0.9 from a cardiologist. No electrode-off flag is raised inside the window, so the label is "
    "trustworthy; the noise segment at 100–101 s lies outside it and does not matter here. ✔";

std::vector<std::string> LongKeywordList() {
  return {"electrocardiogram",
          "atrial fibrillation",
          "heart rate",
          "oxygen saturation",
          "accelerometer",
          "air pressure",
          "step count",
          "battery voltage",
          "diary",
          "mood",
          "synthetic",
          "irregular sampling",
          "ordinal axis",
          "packed text",
          "Zoë",
          "naïve café ☕",
          "multi-chunk",
          "row groups",
          "shards",
          "annotations",
          "three axis types",
          "every task type"};
}

}  // namespace timef::demo::internal
