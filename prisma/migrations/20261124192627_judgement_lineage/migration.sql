-- AlterTable
ALTER TABLE "File" ADD COLUMN     "source" JSONB;

-- AlterTable
ALTER TABLE "TrainingJob" ADD COLUMN     "source" JSONB;
