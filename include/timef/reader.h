// Reading a committed TimeF release (docs/format.md §11, §13): open checks the manifest and the
// presence and size of every listed file, and nothing else; the catalog opens read-only on the
// first object request; records and tasks are built in batches into model objects whose signal
// values, irregular offsets and packed text are lazy handles unless the read's LoadPlan loads
// them. A value read resolves the signal's chunk locators (kept in memory with the signal) and
// decodes only the pages of the chunks it needs.
//
// Ownership and lifetime: every object a read returns is owned by the caller (shared_ptr) and
// outlives the Reader. A lazy handle (values, offsets or text not yet loaded) shares the reader's
// file state: after Close() or the Reader's destruction it reopens the files it reads, and the
// state is freed with the last handle. An object loaded eagerly keeps no reader state.
//
// Threading: a Reader is used by one thread at a time (open one per thread for parallel
// requests). Lazy handles may be used from any thread, concurrently with each other and with
// their Reader's requests and Close(): a value read takes one of the reader's
// ReaderOptions::decode_threads decode lanes (each behind its own lock), so up to that many reads
// through the handles of one reader decode at once and the rest wait; payload text and offsets
// reads share one lock per reader. Batch reads decode on that many threads by themselves
// (ReaderOptions::decode_threads). Across fork() the catalog connection closes and reopens on the
// next request, in parent and child, and a child's first parallel batch starts decode threads of
// its own. A batch that decodes on other threads when fork() is called (an eager IterRecords with
// several decode threads decodes its next batch between Next() calls) does not exist in the
// child: the child must not read values through that reader or stream again; it opens its own
// Reader (as the Python torch datasets do, per process).
//
// Errors (docs/format.md §12): ValidationError for bad arguments, NotFoundError naming every
// unknown ID ("<table>: <id column>: no <kind> with ID 7, 9"), FormatError (naming the table and
// column) for a stored artifact that is corrupt or unsupported, FileError for a file that is
// missing or cannot be read, ReaderError for a read interrupted by Close() or fork().
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "timef/arrow_table.h"
#include "timef/dataset_version.h"
#include "timef/ids.h"
#include "timef/manifest.h"
#include "timef/model.h"

namespace timef {

enum class Loading { kLazy, kEager };

// The storage orders of Reader::SignalIds: kRecords, records in read order and a record's signals
// by where their values live; kValues, by where the values live alone (a shard's rows front to
// back, so consecutive signals share pages whatever record they belong to).
enum class SignalOrder { kRecords, kValues };

// Which kinds of stored values a read loads into the objects it builds.
struct LoadPlan {
  Loading signal_values = Loading::kLazy;
  Loading time_offsets = Loading::kLazy;
  Loading text = Loading::kLazy;  // packed prompts, rationales, text targets, annotation values

  static LoadPlan AllLazy() { return {}; }
  static LoadPlan AllEager() { return {Loading::kEager, Loading::kEager, Loading::kEager}; }
};

inline constexpr std::int64_t kRecordBatchSize = 1000;
inline constexpr std::int64_t kTaskBatchSize = 5000;

struct RecordQuery {
  // The records to read, in this order; nullopt = every record in stored read order. An empty
  // list reads nothing.
  std::optional<std::vector<std::int64_t>> ids;
  std::int64_t batch_size = kRecordBatchSize;
  LoadPlan load;
};

struct TaskQuery {
  // Tasks with any of these input record IDs; nullopt = no input filter. An empty list selects
  // no task.
  std::optional<std::vector<std::int64_t>> inputs;
  // Alternatively the Records themselves (read earlier from this reader's release): selects the
  // tasks that use one of them as input, like `inputs` (an empty list selects no task), and the
  // tasks reference these very objects, which the read's plan does not touch. Not together with
  // `inputs`.
  std::optional<std::vector<std::shared_ptr<model::Record>>> input_records;
  std::optional<model::Split> split;
  std::optional<model::TaskType> type;
  // Tasks whose input modalities include all of these / lie within these (empty = any).
  std::vector<model::InputModality> required_modalities;
  std::vector<model::InputModality> supported_modalities;
  std::int64_t batch_size = kTaskBatchSize;
  LoadPlan load;
};

// What a reader has touched since it was opened, to check laziness without timing.
struct ReaderCounters {
  std::uint64_t catalog_opens = 0;
  std::uint64_t catalog_requests = 0;  // requests that ran SQL on the catalog
  std::uint64_t signals_indexed = 0;   // signals in the compact locator index
  std::uint64_t values_files_opened = 0;
  std::uint64_t chunks_read = 0;
  std::uint64_t data_pages_decoded = 0;
  // Reads that went on decoding a Parquet page an earlier read stopped in (reading a shard's rows
  // one after another, e.g. a scan, decodes each page once; docs/architecture.md "Read caches").
  std::uint64_t data_pages_resumed = 0;
  std::uint64_t dictionary_pages_decoded = 0;  // Parquet dictionary pages decoded
  std::uint64_t dictionary_cache_hits = 0;     // chunks whose dictionary came from the cache
  // Whole catalog query results copied into the row cache (ReaderOptions::catalog_cache_bytes).
  std::uint64_t catalog_cache_loads = 0;
  std::uint64_t payload_files_opened = 0;
  std::uint64_t payload_values_read = 0;
  // The most bytes of decoded buffers (decompressed Parquet pages, decoded Zarr inner chunks) the
  // reader held at once, never above ReaderOptions::decode_budget_bytes.
  std::uint64_t decode_budget_peak = 0;
};

class ReaderState;

// A parent named by its local alias (docs/format.md §10: `parent=` of a lookup by parent ID).
struct ParentAlias {
  std::string alias;
  bool operator==(const ParentAlias&) const = default;
};
// The parent of a lookup by parent ID: its alias, or its exact release when exactly one alias
// names that release. A plain string is neither, so that an alias is never read as a ref.
using ParentRef = std::variant<ParentAlias, ReleaseRef>;

struct ReaderOptions {
  // The compact locator index (GetSignalValues, GetSignals) loads every signal's locators in one
  // query when the release has at most this many chunk rows (manifest counts.signal_chunks), about
  // 24 bytes per chunk plus 48 per signal; above it, each request indexes only what it asks for.
  std::int64_t index_all_chunks = 1'000'000;
  // The registry root under which the release's payload sources sit, as
  // `<sources_root>/<org>/<name>/<version>` (docs/format.md §10). nullopt: the root holding the
  // release when it sits at `<root>/<dataset_id>/<version>`; a release with payload sources
  // elsewhere then raises ValidationError at Open.
  std::optional<std::filesystem::path> sources_root;
  // The download cache of a remote release's catalog (docs/remote.md "Cache") and of a legacy
  // directory's metadata catalog (docs/format.md §15.8). nullopt:
  // $TIMEF_CACHE_DIR, else $XDG_CACHE_HOME/timef, else $HOME/.cache/timef (ValidationError at Open
  // of a remote release when none is set).
  std::optional<std::filesystem::path> cache_dir;
  // Budget of the decoded Parquet dictionaries the reader keeps across value reads (least recently
  // used out first; docs/architecture.md "Read caches"). A random read that comes back to a row
  // group then decodes only its data pages. 0 keeps none. One cache per Reader (shared with the
  // lazy handles it hands out, used under their file lock); Close() empties it.
  std::int64_t dictionary_cache_bytes = std::int64_t{64} << 20;
  // Budget of the catalog rows a lookup by ID (GetRecord(s), GetSignal(s)) keeps in memory: the
  // first lookup copies the whole results of the queries that build records (records, sources,
  // signals with axes, signal_chunks, annotation occurrences) out of the catalog, and later
  // lookups build their objects from that copy with no SQL (docs/architecture.md "Read caches").
  // A result that does not fit what is left of the budget is not kept; its query then runs per
  // lookup. IterRecords batches use it too; task reads and ReadDataset do not. 0 keeps none.
  // Close() empties it.
  std::int64_t catalog_cache_bytes = std::int64_t{128} << 20;
  // Threads that decode stored values at once (1..256, else ValidationError at Open): a batch read
  // (Reader::LoadValues; IterRecords, GetRecords, GetSignals and task reads whose LoadPlan loads
  // signal values) cuts its signals into this many runs in their order and decodes the runs at
  // once, the calling thread taking the first; lazy handles used from several threads decode on up
  // to this many at once. Each thread decodes through its own lane (open shards, parked pages,
  // scratch); the decoded dictionaries are shared (docs/architecture.md "Decode lanes"). The
  // values are the same for any count.
  int decode_threads = 1;
  // Budget of the decoded buffers the reader holds at once, over all its decode lanes and open
  // files (docs/format.md §7.7 "Decode budget"): decompressed Parquet pages, the pages it parks to
  // resume, and the Zarr inner chunks it keeps. A page's header declares its decompressed size,
  // which a few KB of zstd can make hundreds of MB; a page or chunk that does not fit what is left
  // is a FormatError naming the file (kept Zarr chunks are dropped first to make room). timef
  // writes 16 KiB pages and 1 MiB chunks, so the default leaves room for files of other writers
  // with large pages. At least 1 (ValidationError at Open).
  std::int64_t decode_budget_bytes = std::int64_t{256} << 20;
};

// A signal's stored values found through the reader's compact locator index, without building its
// record (docs/format.md §11.5). Once the index holds the signal, reading costs no SQL: a hash
// lookup and the decode of the pages that hold the values. A copyable handle: it shares the
// reader's state (so it keeps working after the Reader is closed or destroyed, reopening what it
// needs) and may be used from any thread, like the reader's lazy handles. LoadValues() and
// ReadSteps() throw FormatError/FileError for stored values that cannot be read.
class SignalValuesRef {
 public:
  std::int64_t id() const { return id_; }
  std::int64_t record_id() const { return record_id_; }
  const model::Spec& spec() const { return *spec_; }
  const std::shared_ptr<const model::Spec>& spec_ptr() const { return spec_; }
  // Timesteps (n_values of the signal row).
  std::int64_t n_values() const { return n_values_; }
  bool has_values() const { return values_ != nullptr; }
  // Every value, decoded now (Error when the signal has no values). The same verb as
  // model::Signal::LoadValues(): one name for "load a signal's values" on both user-facing types.
  std::shared_ptr<const model::ValueArray> LoadValues() const;
  // Every value decoded into the caller's buffers, with no array in between: `out` takes the
  // n_values() × spec().StepWidth() scalars as the dtype's storage type (model::ScalarSpan: bool
  // and uint8 as uint8_t, enum as int32_t codes), `validity` (empty, or n_values() bytes) 1 for a
  // present step and 0 for a null one. A training loop that reads into buffers it keeps allocates
  // nothing per read: once the shard is open and its dictionary cached (a local release's Parquet
  // values), the decode goes through the reader's kept scratch into `out` (a Zarr chunk is decoded
  // as an array and copied). Errors: those of LoadValues; ValidationError naming the signal for a
  // buffer of another element type or size, a validity buffer of another size, a str signal (no
  // fixed-width buffer), and for null steps when `validity` is empty (a null would otherwise read
  // as the 0 in its slot). After an error the buffers' contents are unspecified.
  void LoadValuesInto(model::ScalarSpan out, std::span<std::uint8_t> validity = {}) const;
  // Deprecated old name of LoadValues(), kept while other code moves over; do not use in new code.
  std::shared_ptr<const model::ValueArray> Load() const { return LoadValues(); }
  // Timesteps [begin, end) with the same rules as model::Signal::ReadSteps: end is clamped to
  // n_values, a negative or reversed window raises ValidationError, only intersecting chunks and
  // pages are decoded (an empty window decodes nothing).
  model::ValueArray ReadSteps(std::int64_t begin, std::int64_t end) const;
  // The lazy source, e.g. to attach to a model::Signal built elsewhere.
  const std::shared_ptr<const model::SignalValues>& source() const { return values_; }

 private:
  friend class Reader;
  std::int64_t id_ = 0;
  std::int64_t record_id_ = 0;
  std::int64_t n_values_ = 0;
  std::shared_ptr<const model::Spec> spec_;
  std::shared_ptr<const model::SignalValues> values_;
};

// Yields records (or tasks) in bounded batches; each batch is built on its own. Two ways to
// consume it (use one per stream):
//   - batch-wise: `while (auto batch = stream.Next()) { for (auto& r : *batch) ... }`;
//   - object-wise, in a range-for: `for (const auto& record : reader.IterRecords()) ...`. The
//     input iterator pulls the next batch (one Next()) when the current one is used up, so memory
//     stays at one batch; the element is the batch's shared_ptr, which the caller may keep.
// Lifetime and threading: the stream owns the batch being iterated; an iterator points into the
// stream, so the stream must outlive its iterators and must not be moved while one is in use (a
// range-for keeps a temporary stream alive for the whole loop). begin() may be called once per
// stream (an input range: a second pass sees nothing). A stream shares its Reader's state, so it
// keeps working after the Reader's Close() or destruction (the catalog reopens); like its Reader it
// is used by one thread at a time.
template <class T>
class BatchStream {
 public:
  using Batch = std::vector<std::shared_ptr<T>>;
  explicit BatchStream(std::function<std::optional<Batch>()> next) : next_(std::move(next)) {}
  // The next batch, or nullopt at the end.
  std::optional<Batch> Next() { return next_ ? next_() : std::nullopt; }

  class iterator {
   public:
    using iterator_concept = std::input_iterator_tag;
    using iterator_category = std::input_iterator_tag;
    using value_type = std::shared_ptr<T>;
    using difference_type = std::ptrdiff_t;
    using reference = const std::shared_ptr<T>&;
    using pointer = const std::shared_ptr<T>*;

    iterator() = default;
    reference operator*() const { return stream_->batch_[stream_->position_]; }
    pointer operator->() const { return &**this; }
    iterator& operator++() {
      if (!stream_->Advance()) stream_ = nullptr;
      return *this;
    }
    void operator++(int) { ++*this; }
    friend bool operator==(const iterator& it, std::default_sentinel_t) {
      return it.stream_ == nullptr;
    }

   private:
    friend class BatchStream;
    explicit iterator(BatchStream* stream) : stream_(stream) {}
    BatchStream* stream_ = nullptr;
  };

  // Pulls the first non-empty batch; equal to end() when there is none.
  iterator begin() {
    batch_.clear();
    position_ = 0;
    return PullBatch() ? iterator(this) : iterator();
  }
  std::default_sentinel_t end() const { return {}; }

 private:
  // Moves to the next element, pulling batches as needed; false at the end.
  bool Advance() {
    if (++position_ < batch_.size()) return true;
    return PullBatch();
  }
  // Replaces the batch with the next non-empty one; false (and an empty batch) at the end.
  bool PullBatch() {
    batch_.clear();
    position_ = 0;
    while (std::optional<Batch> next = Next()) {
      if (!next->empty()) {
        batch_ = std::move(*next);
        return true;
      }
    }
    return false;
  }

  std::function<std::optional<Batch>()> next_;
  Batch batch_;
  std::size_t position_ = 0;
};
using RecordStream = BatchStream<model::Record>;
using TaskStream = BatchStream<model::Task>;

class Reader {
 public:
  // docs/format.md §11.1: reads and validates the manifest (ManifestError; FileError when
  // missing), checks every own file exists with its recorded size (FileError naming it). Then
  // each directly listed payload source (§10): found under options.sources_root (ValidationError
  // when it is needed and cannot be determined), its manifest read, each pin identical to the
  // source's FilePart (FormatError "pin differs") and each pinned file present with its size
  // (FileError naming it). Hashes nothing, opens no catalog, reads no values.
  //
  // `release_dir` may be an http:// or https:// URL of a release (docs/remote.md): its manifest
  // is fetched and checked the same way, payload sources resolve against the same remote root
  // (or options.sources_root), and no other file is looked for; each file's size comes from the
  // manifest and is checked when it is read. The catalog is fetched on the first request into the
  // cache directory ($TIMEF_CACHE_DIR, else $XDG_CACHE_HOME/timef, else ~/.cache/timef) and its
  // sha256 checked before DuckDB opens it. ValidationError for a URL with credentials or a query
  // string; the transport's errors (FileError, MissingFileError) name the URL.
  //
  // The same as Open(OpenVersion(release_dir, options.sources_root), options) for a native
  // release; a legacy directory (docs/format.md §15) is read through its native form.
  static Reader Open(const std::filesystem::path& release_dir, const ReaderOptions& options = {});
  // A reader of a version opened earlier (include/timef/dataset_version.h): no file is looked for
  // again and no manifest read again (options.sources_root is not used: the version's sources are
  // resolved). Readers opened from one version are independent; a remote version's share its
  // HTTP(S) connections.
  static Reader Open(const DatasetVersion& version, const ReaderOptions& options = {});

  Reader(Reader&&) noexcept;
  // Closes this reader first (as Close()).
  Reader& operator=(Reader&&) noexcept;
  // Closes the reader (as Close()); lazy handles still alive keep what they need to reopen.
  ~Reader();

  const manifest::Manifest& manifest() const;
  const std::filesystem::path& path() const;

  // Hashes every own file, sorted by path, then every pinned file of the payload sources (sources
  // by ref, pins by path); the first missing or mismatching file raises FileError naming it with
  // the expected and actual size or checksum.
  void Verify() const;
  // The same, reporting progress: `progress(bytes_done, bytes_total)` is called once before the
  // first file (0, total), after every hashed block of 1 MiB and after each file, where
  // bytes_total is the sum of the manifest's recorded sizes. It runs on the calling thread; an
  // exception it throws ends Verify() and propagates.
  using VerifyProgress = std::function<void(std::int64_t bytes_done, std::int64_t bytes_total)>;
  void Verify(const VerifyProgress& progress) const;

  // The whole dataset: records in stored read order, tasks by ID, registered annotations.
  std::unique_ptr<model::Dataset> Read(const LoadPlan& load = {});
  // Record IDs in stored read order.
  std::vector<std::int64_t> RecordIds();
  // Every signal ID (imported ones included) in storage order. kRecords: records in read order, a
  // record's signals by where their first chunk lives (signals without values last), ties by ID.
  // kValues: by where the first chunk lives alone (payload source, value path, row group, row;
  // signals without values last), ties by record read order, then ID: a shard's rows front to
  // back, which for a writer that stores signals by (spec_type, name) is lead by lead across
  // records. One catalog query per order on its first call; the list is kept for later calls. A
  // values-only epoch is either list cut into batches of GetSignalValues + LoadValues (leaving out
  // refs without has_values()): no record objects are built, and each page of the values plane is
  // decoded once (docs/format.md "Reading values without records"; kRecords interleaves a record's
  // signals, which needs a parked page per interleaved signal).
  std::vector<std::int64_t> SignalIds(SignalOrder order = SignalOrder::kRecords);
  // Records in read order, or the given IDs in the caller's order (NotFoundError naming every
  // unknown ID before the first batch). With an eager values plan and
  // ReaderOptions::decode_threads > 1 the stream runs one batch ahead: once a batch is handed out,
  // the next is built and its values decode on the decode threads while the caller works, so two
  // batches are held; an error building the next batch is thrown by the following Next().
  RecordStream IterRecords(const RecordQuery& query = {});

  std::vector<std::shared_ptr<model::Task>> ReadTasks(const TaskQuery& query = {});
  // ReadTasks in batches of query.batch_size by task ID. With an all-lazy plan the stream builds
  // 50,000 tasks at a time (whole batches) and later batches reuse the record objects earlier
  // ones built (up to 20,000); an eager plan builds batch by batch (docs/format.md "IterTasks
  // batches").
  TaskStream IterTasks(const TaskQuery& query = {});

  // Objects by ID (one graph per call; a repeated ID returns the same object; an empty list
  // returns nothing and runs no query). NotFoundError naming every missing ID, or an ID of a task
  // of another type than `type`.
  std::shared_ptr<model::Record> GetRecord(std::int64_t id, const LoadPlan& load = {});
  std::vector<std::shared_ptr<model::Record>> GetRecords(std::span<const std::int64_t> ids,
                                                         const LoadPlan& load = {});
  // Braced lists, `GetRecords({1, 2, 3})` (a span cannot bind one); `GetRecords({7})` is a list
  // of one, never GetRecord(7). Likewise for GetSignals, GetSignalValues and GetTasks.
  std::vector<std::shared_ptr<model::Record>> GetRecords(std::initializer_list<std::int64_t> ids,
                                                         const LoadPlan& load = {}) {
    return GetRecords(std::span<const std::int64_t>(ids.begin(), ids.size()), load);
  }
  // A signal is returned inside its record: signal->source() and source->record() stay valid as
  // long as the signal is held. `load.signal_values` and `load.time_offsets` apply to the
  // requested signals only (an irregular axis object is shared with the signals recorded on it);
  // the rest of the record, and the text of every annotation, stay lazy.
  std::shared_ptr<model::Signal> GetSignal(std::int64_t id, const LoadPlan& load = {});
  std::vector<std::shared_ptr<model::Signal>> GetSignals(std::span<const std::int64_t> ids,
                                                         const LoadPlan& load = {});
  std::vector<std::shared_ptr<model::Signal>> GetSignals(std::initializer_list<std::int64_t> ids,
                                                         const LoadPlan& load = {}) {
    return GetSignals(std::span<const std::int64_t>(ids.begin(), ids.size()), load);
  }
  // Values by signal ID through the compact locator index, without building records. The first
  // request indexes the whole release in one query when it has at most
  // ReaderOptions::index_all_chunks chunk rows (else the requested signals that the index lacks,
  // one query per request); later reads of indexed signals run no SQL. NotFoundError naming every
  // unknown ID.
  SignalValuesRef GetSignalValues(std::int64_t id);
  std::vector<SignalValuesRef> GetSignalValues(std::span<const std::int64_t> ids);
  // `GetSignalValues({7})` is a list of one (the initializer_list overload wins over the single
  // ID by the list-initialization rule), `GetSignalValues(7)` the single ref.
  std::vector<SignalValuesRef> GetSignalValues(std::initializer_list<std::int64_t> ids) {
    return GetSignalValues(std::span<const std::int64_t>(ids.begin(), ids.size()));
  }
  // The values of `refs`, in their order: a batch decoded on up to ReaderOptions::decode_threads
  // threads, in the order the values are stored (the refs sorted stably by their first chunk's
  // file, row group and row) and cut into runs of that order, so a run decodes each page of the
  // batch once whatever order the refs come in. Refs of another reader are loaded through their own
  // handles on this thread. Error naming the signal of a ref without values (before anything is
  // decoded); any other failure is thrown once every thread has stopped, the earliest run's first.
  std::vector<std::shared_ptr<const model::ValueArray>> LoadValues(
      std::span<const SignalValuesRef> refs);
  // LoadValues into the caller's buffers: ref i into outs[i] and, when `validity` is not empty,
  // validity[i] (each as SignalValuesRef::LoadValuesInto; `validity` empty or one span per ref).
  // Decoded like LoadValues (storage order, on the decode threads), so the buffers must not
  // overlap. Every buffer is checked before anything is decoded (ValidationError naming the
  // signal, or the lists' sizes); other errors as LoadValues, nulls without a validity buffer once
  // the batch is decoded.
  void LoadValuesInto(std::span<const SignalValuesRef> refs,
                      std::span<const model::ScalarSpan> outs,
                      std::span<const std::span<std::uint8_t>> validity = {});

  std::shared_ptr<model::Task> GetTask(std::int64_t id,
                                       std::optional<model::TaskType> type = std::nullopt,
                                       const LoadPlan& load = {});
  std::vector<std::shared_ptr<model::Task>> GetTasks(
      std::span<const std::int64_t> ids, std::optional<model::TaskType> type = std::nullopt,
      const LoadPlan& load = {});
  std::vector<std::shared_ptr<model::Task>> GetTasks(
      std::initializer_list<std::int64_t> ids, std::optional<model::TaskType> type = std::nullopt,
      const LoadPlan& load = {}) {
    return GetTasks(std::span<const std::int64_t>(ids.begin(), ids.size()), type, load);
  }

  // Imported objects by the parent's ID (docs/format.md §10): the child's copy of the object
  // that `parent` gives the ID `parent_id`, read like GetRecord/GetSignal/GetTask.
  // ValidationError for a ref that several aliases name; NotFoundError for an unknown alias, a ref
  // no alias names, a parent ID not imported as this kind (another kind, or an import an edit
  // removed), or a task of another type than `type`.
  std::shared_ptr<model::Record> GetRecord(const ParentRef& parent, std::int64_t parent_id,
                                           const LoadPlan& load = {});
  std::shared_ptr<model::Signal> GetSignal(const ParentRef& parent, std::int64_t parent_id,
                                           const LoadPlan& load = {});
  std::shared_ptr<model::Task> GetTask(const ParentRef& parent, std::int64_t parent_id,
                                       std::optional<model::TaskType> type = std::nullopt,
                                       const LoadPlan& load = {});

  // Arrow tables without model objects (docs/format.md §11.6): one record batch each, in
  // the Arrow C Data Interface (include/timef/arrow_table.h). ID columns are int64 dataset IDs
  // (occurrence_id/content_id and a Source's object_id are storage row numbers of this version);
  // packed text is resolved to its string. The filters of `query` (inputs, split, type, required
  // and supported modalities) run in DuckDB; batch_size and load are ignored.
  ArrowTable ReadTaskTable(const TaskQuery& query = {});    // one row per task, by task_id
  ArrowTable ReadTargetTable(const TaskQuery& query = {});  // one row per inline target
  ArrowTable ReadAnnotationTable();  // one row per occurrence, then per registered annotation

  ReaderCounters counters() const;
  // Closes the catalog connection and the open values and payload files and drops the decoded-text
  // cache. Lazy handles and later requests reopen what they need.
  void Close();

 private:
  explicit Reader(std::shared_ptr<ReaderState> state);
  // The child-local ID of the object imported from `parent` as `parent_id`; `import_kind` is the
  // import_refs kind ("Record", "Signal", "Task"), `kind` its name in messages.
  std::int64_t LocalIdOf(const ParentRef& parent, std::string_view import_kind,
                         std::string_view kind, std::int64_t parent_id);
  std::shared_ptr<ReaderState> state_;
};

}  // namespace timef
