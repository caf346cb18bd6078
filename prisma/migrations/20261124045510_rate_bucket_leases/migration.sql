-- AlterTable
ALTER TABLE "rate_buckets" ADD COLUMN     "last_take" INTEGER NOT NULL DEFAULT 1;
