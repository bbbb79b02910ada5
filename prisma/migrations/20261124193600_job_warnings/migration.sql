-- AlterTable
ALTER TABLE "TrainingJob" ADD COLUMN     "warnings" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "sampleReplies" JSONB NOT NULL DEFAULT '[]';
