// Keeps the parquet module non-empty until its first real source lands; delete when it does.
namespace timef::parquet {}
