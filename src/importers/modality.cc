// The modality table of docs/importing.md ("Modalities"): channel label prefix → spec_type.
#include <array>

#include "timef/importers.h"

namespace timef {
namespace {

// EDF+ labels start with the signal type ("EEG Fpz-Cz", "Resp oro-nasal", "SaO2"); other formats'
// labels usually do too. Longer prefixes before shorter ones that they extend.
constexpr std::array<ModalityEntry, 12> kModalities{{
    {"EEG", "eeg", "EEG"},
    {"ECG", "ecg", "ECG"},
    {"EKG", "ecg", "ECG"},
    {"EMG", "emg", "EMG"},
    {"EOG", "eog", "EOG"},
    {"Resp", "respiration", "Respiration"},
    {"SpO2", "spo2", "SpO2"},
    {"SaO2", "spo2", "SpO2"},
    {"Pleth", "ppg", "Photoplethysmogram"},
    {"PPG", "ppg", "Photoplethysmogram"},
    {"Temp", "temperature", "Temperature"},
    {"Pulse", "pulse", "Pulse rate"},
}};

char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool StartsWithNoCase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (Lower(text[i]) != Lower(prefix[i])) return false;
  }
  return true;
}

}  // namespace

std::span<const ModalityEntry> ModalityTable() { return kModalities; }

ModalityEntry ModalityOfLabel(std::string_view label) {
  for (const ModalityEntry& entry : kModalities) {
    if (StartsWithNoCase(label, entry.prefix)) return entry;
  }
  return {"", kGenericSpecType, kGenericSpecName};
}

}  // namespace timef
