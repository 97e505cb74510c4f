// Building a child release from parent releases (docs/format.md §4, §10.2): the child declares
// each parent under an alias, imports records (with their sources, signals, axes, annotations and
// stored locators) and, on explicit request, tasks, adds objects of its own (and overlay
// annotations on imported objects), and is written with the parents' cards and lineage. No value,
// offset or text byte is copied: every imported locator names the release storing its file,
// which becomes a payload source of the child.
//
// Why a Composer and not model::Dataset helpers: importing needs the parent's Reader (its objects,
// manifest and lineage) and the writer needs what was imported (the parents' cards, and the
// parent-owned state to check that the child did not change it) between import and write. The
// model stays free of readers and manifests; the composer holds both ends for one child.
//
// IDs: an imported object gets a child-local ID at import, max+1 of its kind in import order
// (signals in the record's pre-order walk), where max covers the child's IDs so far and its
// id_base; objects the child adds without an ID get theirs at write (Dataset::AssignIds).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "timef/manifest.h"
#include "timef/model.h"
#include "timef/reader.h"
#include "timef/writer.h"

namespace timef {

// Ownership and lifetime: holds a reference to the child dataset (which must outlive it) and one
// to each parent Reader given to AddParent (each must stay open until Write). Not thread-safe:
// one thread uses a Composer, and the parent Readers, while it imports and writes. Errors:
// ValidationError for a bad or unknown alias, an object imported twice or a parent-owned object the
// child changed, NotFoundError for unknown IDs; the reader's and writer's own errors propagate.
class Composer {
 public:
  // `child` must outlive the composer; it may already hold objects of its own.
  explicit Composer(model::Dataset& child);
  ~Composer();
  Composer(const Composer&) = delete;
  Composer& operator=(const Composer&) = delete;

  model::Dataset& child() { return child_; }

  // Declares `parent`'s release under `alias` (Dataset::AddParent: ValidationError for a bad or
  // repeated alias, or the child's own release). `parent` must stay open until Write().
  void AddParent(const std::string& alias, Reader& parent);

  // Imports the parent's records `parent_ids`, in this order, and returns the child's copies.
  // NotFoundError naming unknown IDs (before anything is imported); ValidationError for an
  // unknown alias or an object already imported under this alias.
  std::vector<std::shared_ptr<model::Record>> ImportRecords(
      const std::string& alias, std::span<const std::int64_t> parent_ids);

  // Imports the parent's tasks `parent_task_ids`, in this order. Every input record of each must
  // have been imported under `alias` first (ValidationError naming the task and the record); the
  // tasks then reference the child's copies. Each task a task is built from (from_tasks) must be
  // imported under `alias` before or in the same call (ValidationError otherwise); from_tasks then
  // reference the child's copies. Registered annotations the tasks reference are registered in the
  // child once, as inherited, however many calls reference them.
  std::vector<std::shared_ptr<model::Task>> ImportTasks(
      const std::string& alias, std::span<const std::int64_t> parent_task_ids);
  // The parent's tasks whose input records are all imported under `alias` (timef derive
  // --with-tasks), in task ID order; tasks that also reference records not imported (as
  // candidates or targets) are skipped, and so are tasks built from a skipped task.
  std::vector<std::shared_ptr<model::Task>> ImportTasksOfImportedRecords(const std::string& alias);

  // Checks that no parent-owned data changed (metadata, names, sources, signals, values, inherited
  // annotations and their marks: ValidationError "parent-owned" naming the object and the field),
  // then writes the child as `<root>/<dataset_id>/<version>` (WriteRelease) with parent_cards and
  // lineage copied from the parents' manifests.
  WriteResult Write(manifest::Card card, const std::filesystem::path& root,
                    const WriteOptions& options = {});

 private:
  struct Parent;
  struct Imported;
  Parent& ParentOf(const std::string& alias);
  void CheckParentOwned() const;

  model::Dataset& child_;
  std::map<std::string, std::unique_ptr<Parent>> parents_;
  std::vector<std::unique_ptr<Imported>> imported_;
};

// An edit (docs/format.md §4.2): a new version of the dataset `base` holds, written from its
// objects. Every surviving object keeps its ID; objects added to dataset() get IDs above the
// base's stored high-water marks, so a removed ID is never reused. Everything is read lazily and
// written by reference: unchanged values, offsets and text stay in the release that stores them
// (the base, or the base's own payload sources). Parents, parent cards and lineage carry over.
// Ownership and lifetime: owns the new dataset (dataset()), holds a reference to `base` (which
// must stay open until Write). Not thread-safe: one thread uses an Editor and its base Reader.
// Errors as for Composer.
class Editor {
 public:
  // Reads `base` (lazily); `base` must stay open until Write(). ValidationError for a version
  // that breaks §2.1.
  Editor(Reader& base, std::string version);
  ~Editor();
  Editor(const Editor&) = delete;
  Editor& operator=(const Editor&) = delete;

  // The new version: add records and tasks here (imported objects stay parent-owned).
  model::Dataset& dataset() { return *dataset_; }

  // Removes records by ID, with the tasks that reference any of them (inputs, candidates, record
  // and signal targets) and the tasks built from those, and every annotation on them; their imports
  // are dropped with them. NotFoundError naming every ID that is not a record of the dataset.
  // Returns the IDs of the removed tasks.
  std::vector<std::int64_t> RemoveRecords(std::span<const std::int64_t> ids);

  // Writes `<root>/<dataset_id>/<version>` with the base's card (version replaced), parent cards
  // and lineage.
  WriteResult Write(const std::filesystem::path& root, const WriteOptions& options = {});

 private:
  Reader& base_;
  std::unique_ptr<model::Dataset> dataset_;
};

}  // namespace timef
